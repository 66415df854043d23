-- Helpers of the views. money_ratio(amount, n): amount / n rounded half-up (away from zero) to
-- the cent, exactly (integer cents, no float), as DECIMAL(18,2); NULL when n is not positive.
-- ADR, RevPAR and TRevPAR of the views use it, like the marts (docs/kpi.md).
CREATE OR REPLACE MACRO mart.money_ratio(amount, n) AS
    CASE WHEN n > 0 THEN CAST(CAST(sign(amount) * ((abs(CAST(round(amount * 100) AS HUGEINT)) * 2
                                                     + n) // (2 * n)) AS DECIMAL(18, 0)) * 0.01
                              AS DECIMAL(18, 2)) END;

-- The money of the folio lines (docs/reconciliation.md, Close pack; docs/sandbox.md, Money), one
-- definition for the ledgers and the close pack. is_city_ledger(folio description): a folio of
-- the city ledger (accounts receivable: a company's or agency's account, `City ledger: <name>`),
-- kept apart from the guest ledger. is_transfer(line type, line description): a payment line
-- that moves a balance between folios (`Transfer to ...`, `Transfer from folio ...`), not money
-- received. payment_method(line description): the word after the colon of `<what>: <method>`
-- (card, cash, bank transfer, OTA virtual card), 'unstated' when the line names none.
CREATE OR REPLACE MACRO mart.is_city_ledger(folio_description) AS
    coalesce(folio_description LIKE 'City ledger: %', false);
CREATE OR REPLACE MACRO mart.is_transfer(line_type, line_description) AS
    line_type = 'payment' AND coalesce(line_description LIKE 'Transfer %', false);
CREATE OR REPLACE MACRO mart.payment_method(line_description) AS
    CASE WHEN contains(coalesce(line_description, ''), ': ')
         THEN trim(split_part(line_description, ': ', 2)) ELSE 'unstated' END;
