-- Answers: for the nights of the coming 14 days, how does what is on the books today compare
-- with what was on the books for the same weekday last year at the same days before arrival?
SELECT pa.property_id, pa.stay_date, pa.days_before, pa.rooms_otb, pa.stly_rooms_otb,
       pa.rooms_otb - pa.stly_rooms_otb AS rooms_vs_stly,
       pa.revenue_otb_net, pa.stly_revenue_otb_net
FROM mart.pace pa
JOIN core.property p ON p.property_id = pa.property_id
WHERE pa.stay_date - pa.days_before = p.business_date AND pa.days_before < 14
ORDER BY pa.property_id, pa.stay_date;
