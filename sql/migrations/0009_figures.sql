-- Issue 14 (figures a revenue manager and a controller sign): the departments as a reference
-- table, ...
CREATE TABLE mart.departments (
    department VARCHAR PRIMARY KEY,
    label VARCHAR NOT NULL,
    is_revenue BOOLEAN NOT NULL,
    position INTEGER NOT NULL
);
COMMENT ON TABLE mart.departments IS 'The departments of revenue, one row each: written from pipelines/transforms/departments.py DEPARTMENTS (the one definition the marts, reports, views and notebooks use) every time the views are applied. Join it rather than spelling a department.';
COMMENT ON COLUMN mart.departments.department IS 'Department code as in core.items.department and mart.revenue_daily.department: accommodation, food_beverage, other, city_tax.';
COMMENT ON COLUMN mart.departments.label IS 'Name to show.';
COMMENT ON COLUMN mart.departments.is_revenue IS 'False for city tax (collected for the city, outside VAT, never revenue).';
COMMENT ON COLUMN mart.departments.position IS 'Order of the departments in reports and views.';
