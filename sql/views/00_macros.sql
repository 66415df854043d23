-- Helpers of the views. money_ratio(amount, n): amount / n rounded half-up (away from zero) to
-- the cent, exactly (integer cents, no float), as DECIMAL(18,2); NULL when n is not positive.
-- ADR, RevPAR and TRevPAR of the views use it, like the marts (docs/kpi.md).
CREATE OR REPLACE MACRO mart.money_ratio(amount, n) AS
    CASE WHEN n > 0 THEN CAST(CAST(sign(amount) * ((abs(CAST(round(amount * 100) AS HUGEINT)) * 2
                                                     + n) // (2 * n)) AS DECIMAL(18, 0)) * 0.01
                              AS DECIMAL(18, 2)) END;
