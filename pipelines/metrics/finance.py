"""The figures of the controller's reports (docs/kpi.md, docs/reconciliation.md): revenue by
posting date, the tie-out, the city-tax return, the ledgers, the worklist, the interface loss,
the reconciliation runs and the close pack. Each name is the column the reports print; an
amount of a listing (`net`, `gross`, `balance`...) is that of the row's lines or folio."""

from __future__ import annotations

from pipelines.metrics.metric import POSTED, Metric, at

RECONCILIATION_STATUSES = ("matched", "missing", "posted", "amount_mismatch", "blocked",
                           "failed")
"""recon's statuses (pipelines.recon.STATUSES), one count and one amount column each in
`pmsw report reconciliation`."""

_REVENUE = at(
    POSTED,
    Metric("accommodation_net", "accommodation lines of the folios by posting date, fees in, "
           "net of VAT (room_revenue_net is by stay date; the tie-out explains the "
           "difference)"),
    Metric("total_revenue_posted_net", "revenue lines by posting date, net of VAT; city tax "
           "apart (total_revenue_net takes the rooms by the night they pay: the two differ by "
           "night charges posted on another date, the tie-out's explained_net)"),
    Metric("total_revenue_posted_gross", "revenue lines by posting date, VAT included; city "
           "tax apart"),
    Metric("city_tax_charged", "city tax charged on the folios (the city-tax item's lines) by "
           "posting date, gross (no VAT); never revenue: revenue's column beside the "
           "departments and the city-tax return's charged side, one figure"),
)
_LINES = at(
    "the report's dates (closed business dates)",
    Metric("lines", "the row's folio lines (charges, or payments in a payments table)"),
    Metric("net", "the row's charges net of VAT"),
    Metric("vat", "the row's VAT: gross - net"),
    Metric("gross", "the row's charges VAT included"),
    Metric("amount", "the row's amount as the folio carries it, VAT included"),
    Metric("quantity", "the charge's quantity"),
    Metric("age_days", "days from the row's date (a charge's business date, a folio's oldest "
           "posting) to the date the report stands on"),
)
_TIEOUT = at(
    "the closed business dates of the tie-out, by posting date",
    Metric("folio_lines_net", "the department's folio lines by posting date, summed straight "
           "from core.folio_lines, net of VAT"),
    Metric("folio_lines_gross", "the same lines, VAT included"),
    Metric("reported_net", "the department's figure in the revenue reports (rooms: "
           "occupancy's room_revenue_net, nights and fees; others: revenue's)"),
    Metric("of_which_fees_net", "of reported_net, the no-show, cancellation and "
           "early-departure fees"),
    Metric("difference_net", "folio_lines_net - reported_net"),
    Metric("explained_net", "of the difference, night charges posted on another date than "
           "their night (mart.revenue_tieout's shifted_net)"),
    Metric("unexplained_net", "difference_net - explained_net: 0.00, or listed with its "
           "cause"),
)
_CITY_TAX = at(
    "the month's nights up to the last closed business date; the latest reconciliation run",
    Metric("guests", "city-tax return: persons of the room entries with a night in the "
           "month, each counted once"),
    Metric("person_nights", "persons x nights lived in the month (up to the last closed "
           "business date)"),
    Metric("taxable_nights", "person-nights taxed under each night's city rule (the "
           "reconciliation's resolver)"),
    Metric("exempt_age_nights", "person-nights exempt by age"),
    Metric("exempt_cap_nights", "person-nights exempt beyond the rule's nights cap"),
    Metric("rate", "the amount per taxable person-night (empty when it changes within the "
           "month)"),
    Metric("city_tax_due", "city tax due by the rules: the return's figure"),
    Metric("difference", "city_tax_due - city_tax_charged; missing_still_due + "
           "blocked_still_due + mismatch_still_due + unexplained"),
    Metric("missing_still_due", "city tax the latest reconciliation found missing or failed"),
    Metric("blocked_still_due", "city tax the latest reconciliation found blocked"),
    Metric("mismatch_still_due", "expected - posted of the city-tax charges the latest "
           "reconciliation found at another amount"),
    Metric("unexplained", "the rest of the difference: 0.00 on a reconciled month"),
)
_LEDGERS = at(
    "the last sync (the business date), or the end of --date from the landed history",
    Metric("charges", "the folio's charges (VAT included) posted up to the ledger's date"),
    Metric("payments", "the folio's payments (and transfers out) up to the ledger's date"),
    Metric("received", "the folio's payments: deposits received"),
    Metric("balance", "charges - payments: a guest ledger balance, or a city ledger one "
           "(accounts receivable) with --ledger city"),
    Metric("folios", "folios with a balance other than 0.00"),
    *(Metric(f"balance_{bucket}", f"balance of the folios whose oldest posting is {days} "
             "days old") for bucket, days in (("0_30", "0 to 30"), ("31_60", "31 to 60"),
                                               ("61_90", "61 to 90"),
                                               ("over_90", "more than 90"))),
    Metric("guest_ledger", "the close pack's roll-forward: each line's amount of the guest "
           "ledger (opening, charges, payments, transfers, closing)"),
    Metric("city_ledger", "the same of the city ledger (accounts receivable)"),
    Metric("both_ledgers", "guest_ledger + city_ledger"),
)
_WORKLIST_AND_LOSS = at(
    "the latest reconciliation run of each line and the resolutions recorded since",
    Metric("ticket_lines", "POS ticket lines of the reconciled dates"),
    Metric("lost_lines", "POS lines the interface did not deliver: any run found them off "
           "their folio"),
    Metric("lost_amount", "their amount, VAT included"),
    Metric("loss_pct", "lost_amount / amount x 100", "lost_amount", "amount", 100),
    Metric("recovered_lines", "lost lines an apply run posted"),
    Metric("recovered_amount", "their amount"),
    Metric("open_lines", "lost lines the latest run left missing, blocked or failed and "
           "finance has not resolved (the worklist's resolutions)"),
    Metric("open_amount", "their amount: the interface loss still open"),
)
_RECONCILIATION = at(
    "the run (its business dates)",
    Metric("expected", "charges the run expected on the folios"),
    *(Metric(status, f"charges of the run in status {status}")
      for status in RECONCILIATION_STATUSES),
    *(Metric(f"{status}_amount", f"their expected amount, status {status}")
      for status in RECONCILIATION_STATUSES),
)
FINANCE: tuple[Metric, ...] = (*_REVENUE, *_LINES, *_TIEOUT, *_CITY_TAX, *_LEDGERS,
                               *_WORKLIST_AND_LOSS, *_RECONCILIATION)
