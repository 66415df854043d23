-- Answers: how is revenue split between rooms, food and beverage and other departments each
-- month (net of VAT), and how much city tax was collected beside it (never revenue)?
SELECT property_id, CAST(date_trunc('month', date) AS DATE) AS month,
       sum(revenue_net) FILTER (WHERE department = 'accommodation') AS rooms_net,
       sum(revenue_net) FILTER (WHERE department = 'food_beverage') AS food_beverage_net,
       sum(revenue_net) FILTER (WHERE department = 'other') AS other_net,
       sum(revenue_net) FILTER (WHERE is_revenue) AS total_revenue_net,
       sum(vat) FILTER (WHERE is_revenue) AS vat,
       sum(revenue_gross) FILTER (WHERE department = 'city_tax') AS city_tax_collected
FROM mart.revenue_daily
GROUP BY ALL
ORDER BY property_id, month;
