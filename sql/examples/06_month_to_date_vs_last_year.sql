-- Answers: how is the month (and the year) going so far compared with the same dates last
-- year: rooms sold, occupancy, ADR, RevPAR and room revenue change?
SELECT * FROM mart.v_mtd_yoy ORDER BY property_id, period;
