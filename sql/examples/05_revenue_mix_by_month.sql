-- Answers: how is revenue split between rooms, food and beverage and other departments each
-- month (net of VAT, by posting date), and how much city tax was charged beside it (never
-- revenue)? The columns are pmsw report revenue's (docs/kpi.md): by posting date, so the
-- total is total_revenue_posted_net, not total_revenue_net (rooms by the night they pay).
SELECT property_id, CAST(date_trunc('month', date) AS DATE) AS month,
       sum(department_revenue_net) FILTER (WHERE department = 'accommodation') AS accommodation_net,
       sum(department_revenue_net) FILTER (WHERE department = 'food_beverage') AS food_beverage_revenue_net,
       sum(department_revenue_net) FILTER (WHERE department = 'other') AS other_revenue_net,
       sum(department_revenue_net) FILTER (WHERE is_revenue) AS total_revenue_posted_net,
       sum(vat) FILTER (WHERE is_revenue) AS vat,
       sum(revenue_gross) FILTER (WHERE department = 'city_tax') AS city_tax_charged
FROM mart.revenue_daily
GROUP BY ALL
ORDER BY property_id, month;
