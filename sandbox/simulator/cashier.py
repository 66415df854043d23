"""The hotel's money, acting through the services on each booking's terms (terms.py).

- At confirmation: a non-refundable stay is prepaid in full ("Prepayment: OTA virtual card"
  from an OTA, "Prepayment: card" from the website); a group's rooms each get a deposit
  ("Deposit: bank transfer"). A cancelled room's credit is refunded ("Refund: <method>").
- At check-in: an OTA-collected stay is charged on the OTA's virtual card; some others leave
  the first night as a card deposit.
- At check-out, for each open folio of the room: now and then a goodwill rebate; a booking on
  a city ledger account transfers the room and breakfast (the balance less the extras) to a
  new folio held by the company or agency (reservation room none), put `suspended` until the
  account pays; a guest who leaves with the balance has it transferred to a suspended folio
  held by the guest; the rest is paid with the guest's method (a credit is refunded), and the
  folio closed with its document.
- Every morning: the suspended folios whose payment is due get it ("Payment: bank transfer"
  from an account, "Payment: card" for a departed balance), are reopened and closed.
- Laundry is posted by the desk; now and then with a wrong quantity, reversed and posted again.
"""

from __future__ import annotations

import random
import sqlite3
from datetime import date, timedelta
from decimal import Decimal

from models.folios import ChargeInput

from ..context import Ctx
from ..db import all_rows, one
from ..services.folio_adjustments import post_rebate, reverse_line, transfer
from ..services.folio_lifecycle import close_folio, post_payment, reopen_folio, suspend_folio
from ..services.folios import folio_totals, open_folio, post_charge, room_open_folio
from ..services.guests import create_guest
from ..services.stay_store import accommodation_vat
from .demand import BookingPlan
from .hotel import HotelData
from .params import MoneyParams
from .sampling import lognormal_days, rng_for
from .terms import BANK, CARD, DEFAULT_TERMS, Terms, terms_for

ACCOUNT_PREFIX = "City ledger: "
DEPARTED_PREFIX = "Departed balance: "
GUARANTEED = ("ROOM", "BRK")
"""What a city ledger account pays for; the guest pays the rest (the extras, city tax)."""


class Cashier:
    def __init__(self, ctx: Ctx, hotel: HotelData, seed: int, params: MoneyParams) -> None:
        self.ctx = ctx
        self.hotel = hotel
        self.seed = seed
        self.params = params
        self._terms: dict[str, Terms] = {}

    def terms(self, plan: BookingPlan | None) -> Terms:
        if plan is None:
            return DEFAULT_TERMS
        if plan.ref not in self._terms:
            self._terms[plan.ref] = terms_for(plan, self.params, self.seed,
                                              self.hotel.property_id)
        return self._terms[plan.ref]

    @property
    def conn(self) -> sqlite3.Connection:
        return self.ctx.conn

    def _pay(self, folio_id: int, cents: int, text: str) -> None:
        if cents != 0:
            post_payment(self.conn, self.ctx.property_id, folio_id, cents, text, self.ctx.now())

    def _stay_total(self, stay_id: int) -> int:
        row = one(self.conn, "SELECT COALESCE(SUM(price_cents), 0) AS c FROM stay_nights "
                  "WHERE reservation_room_id = ?", stay_id)
        return 0 if row is None else int(row["c"])

    # -- before the stay ---------------------------------------------------------------------

    def take_advance(self, reservation_id: int, terms: Terms) -> None:
        """Prepayment or deposit of each confirmed room of a reservation, once."""
        if terms.prepaid is None and terms.deposit_pct == 0:
            return
        for stay in all_rows(self.conn, "SELECT id FROM reservation_rooms WHERE "
                             "reservation_id = ? AND status = 'confirmed' ORDER BY id",
                             reservation_id):
            folio_id = room_open_folio(self.conn, stay["id"])
            if folio_id is None or folio_totals(self.conn, folio_id).payments_cents != 0:
                continue
            total = self._stay_total(stay["id"])
            if terms.prepaid is not None:
                self._pay(folio_id, total, f"Prepayment: {terms.prepaid}")
            else:
                self._pay(folio_id, total * terms.deposit_pct // 100, f"Deposit: {BANK}")

    def refund_cancelled(self, reservation_id: int) -> None:
        """Give back the credit of every cancelled room's open folio, by the way it came."""
        for folio in all_rows(
                self.conn, "SELECT f.id FROM folios f JOIN reservation_rooms s ON "
                "s.id = f.reservation_room_id WHERE f.reservation_id = ? AND "
                "s.status = 'cancelled' AND f.status = 'open' ORDER BY f.id", reservation_id):
            balance = folio_totals(self.conn, folio["id"]).balance_cents
            if balance < 0:
                self._pay(folio["id"], balance, f"Refund: {self._method_in(folio['id'])}")

    def _method_in(self, folio_id: int) -> str:
        row = one(self.conn, "SELECT description FROM folio_lines WHERE folio_id = ? AND "
                  "type = 'payment' AND total_cents > 0 ORDER BY id LIMIT 1", folio_id)
        if row is None or ": " not in row["description"]:
            return CARD
        return str(row["description"]).split(": ", 1)[1]

    def at_check_in(self, stay_id: int, terms: Terms, rng: random.Random) -> None:
        folio_id = room_open_folio(self.conn, stay_id)
        if folio_id is None:
            return
        if terms.collect is not None:
            if folio_totals(self.conn, folio_id).payments_cents == 0:
                self._pay(folio_id, self._stay_total(stay_id), f"Prepayment: {terms.collect}")
            return
        if (terms.prepaid is None and terms.deposit_pct == 0 and terms.account is None
                and terms.plan_code not in ("COMP", "HOUSE") and rng.random() < 0.3):
            first = one(self.conn, "SELECT price_cents FROM stay_nights WHERE "
                        "reservation_room_id = ? ORDER BY night LIMIT 1", stay_id)
            if first is not None:
                self._pay(folio_id, first["price_cents"], f"Deposit: {CARD}")

    # -- check-out -----------------------------------------------------------------------------

    def maybe_rebate(self, stay_id: int, rng: random.Random) -> None:
        if rng.random() >= self.params.rebate_share:
            return
        folio_id = room_open_folio(self.conn, stay_id)
        night = one(self.conn, "SELECT MAX(price_cents) AS c FROM stay_nights WHERE "
                    "reservation_room_id = ?", stay_id)
        if folio_id is None or night is None or not night["c"]:
            return
        cents = int(night["c"]) * rng.randint(10, 20) // 100
        if cents > 0:
            post_rebate(self.conn, self.ctx.property_id, folio_id, cents, "goodwill (complaint)",
                        accommodation_vat(self.conn, self.ctx.property_id), self.ctx.now())

    def settle(self, stay_id: int, terms: Terms, what: str = "Payment") -> int:
        """Settle every open folio of the room (see the module's docstring); returns the
        number of documents issued. `what` names the payment ("Payment", "No-show fee")."""
        documents = 0
        for folio in all_rows(self.conn, "SELECT * FROM folios WHERE reservation_room_id = ? "
                              "AND status = 'open' ORDER BY id", stay_id):
            balance = folio_totals(self.conn, folio["id"]).balance_cents
            if terms.account is not None and balance > 0:
                part = balance - self._extras(folio["id"])
                if part > 0:
                    kind, name = terms.account
                    self._transfer(folio, part, self._account_id(kind, name), name,
                                   ACCOUNT_PREFIX, f"city ledger: {name}")
                    balance -= part
            elif terms.skip and balance > 0:
                self._transfer(folio, balance, folio["guest_id"], folio["guest_name"],
                               DEPARTED_PREFIX, "departed balance")
                balance = 0
            if balance > 0:
                self._pay(folio["id"], balance, f"{what}: {terms.method}")
            elif balance < 0:
                self._pay(folio["id"], balance, f"Refund: {self._method_in(folio['id'])}")
            if one(self.conn, "SELECT 1 FROM folio_lines WHERE folio_id = ?",
                   folio["id"]) is not None:
                close_folio(self.conn, self.ctx.property_id, folio["id"], self.ctx.now())
                documents += 1
        return documents

    def _extras(self, folio_id: int) -> int:
        codes = ", ".join(f"'{code}'" for code in GUARANTEED)
        row = one(self.conn, "SELECT COALESCE(SUM(l.total_cents), 0) AS c FROM folio_lines l "
                  f"JOIN items i ON i.id = l.service_item_id WHERE l.folio_id = ? AND "
                  f"l.type <> 'payment' AND i.code NOT IN ({codes})", folio_id)
        return 0 if row is None else int(row["c"])

    def _transfer(self, folio: sqlite3.Row, cents: int, holder: int | None, name: str,
                  prefix: str, to_text: str) -> None:
        target = open_folio(
            self.conn, self.ctx.property_id, reservation_id=folio["reservation_id"],
            reservation_room_id=None, guest_id=holder, guest_name=name,
            description=f"{prefix}{name or 'guest'}", now=self.ctx.now())
        room = one(self.conn, "SELECT room FROM folio_lines WHERE folio_id = ? AND room <> '' "
                   "ORDER BY id LIMIT 1", folio["id"])
        room_text = "" if room is None else f" (room {room['room']})"
        transfer(self.conn, self.ctx.property_id, folio["id"], target, cents,
                 out_text=f"Transfer to {to_text} (folio {target})",
                 in_text=f"Transfer from folio {folio['id']}{room_text}", now=self.ctx.now())
        suspend_folio(self.conn, self.ctx.property_id, target, self.ctx.now())

    def _account_id(self, kind: str, name: str) -> int:
        row = one(self.conn, "SELECT id FROM guests WHERE property_id = ? AND kind = ? AND "
                  "display_name = ? ORDER BY id LIMIT 1", self.ctx.property_id, kind, name)
        if row is not None:
            return int(row["id"])
        return create_guest(self.conn, self.ctx.property_id, {
            "kind": kind, "company_name": name, "country_code": "IT",
            "email": f"accounts@{name.split()[0].lower().strip('.')}.example"},
            self.ctx.now())

    def settle_no_shows(self) -> int:
        """The morning after: the no-show's card pays the night charged (a prepayment above
        it is refunded by the way it came); folio closed."""
        documents = 0
        for row in all_rows(
                self.conn, "SELECT DISTINCT s.id, s.departure FROM reservation_rooms s JOIN "
                "folios f ON f.reservation_room_id = s.id WHERE s.property_id = ? AND "
                "s.no_show = 1 AND f.status = 'open' ORDER BY s.departure, s.id",
                self.ctx.property_id):
            documents += self.settle(row["id"], DEFAULT_TERMS, "No-show fee")
        return documents

    # -- receivables ---------------------------------------------------------------------------

    def collect_due(self, day: date) -> None:
        """The bank statement of the morning: suspended folios whose payment is due today."""
        for folio in all_rows(
                self.conn, "SELECT f.id, f.description, MIN(l.posted_on) AS since FROM folios f "
                "JOIN folio_lines l ON l.folio_id = f.id WHERE f.property_id = ? AND "
                "f.status = 'suspended' GROUP BY f.id ORDER BY f.id", self.ctx.property_id):
            due = self.due_on(folio["id"], folio["description"], date.fromisoformat(folio["since"]))
            if due is None or due > day:
                continue
            method = BANK if folio["description"].startswith(ACCOUNT_PREFIX) else CARD
            balance = folio_totals(self.conn, folio["id"]).balance_cents
            self._pay(folio["id"], balance, f"Payment: {method}")
            reopen_folio(self.conn, self.ctx.property_id, folio["id"], self.ctx.now())
            close_folio(self.conn, self.ctx.property_id, folio["id"], self.ctx.now())

    def due_on(self, folio_id: int, description: str, since: date) -> date | None:
        """When a suspended folio gets paid: an account after its terms, a departed balance
        after 5-40 days for `skip_collected` of them, never for the others."""
        rng = rng_for(self.seed, self.ctx.property_id, "receivable", folio_id)
        if description.startswith(ACCOUNT_PREFIX):
            median, sigma, cap = self.params.account_days
            return since + timedelta(days=max(1, lognormal_days(rng, median, sigma, cap)))
        if description.startswith(DEPARTED_PREFIX) and rng.random() < self.params.skip_collected:
            return since + timedelta(days=rng.randint(5, 40))
        return None

    # -- the desk's own postings -----------------------------------------------------------------

    def laundry(self, stays: list[sqlite3.Row], rng: random.Random) -> None:
        item = self.hotel.items.get("LAUN")
        if item is None:
            return
        for stay in stays:
            nights = (date.fromisoformat(stay["departure"])
                      - date.fromisoformat(stay["arrival"])).days
            if nights < 3 or rng.random() >= self.params.laundry_share:
                continue
            folio_id = room_open_folio(self.conn, stay["id"])
            if folio_id is None:
                continue
            quantity = rng.randint(1, 4)
            if rng.random() < self.params.laundry_error_share:
                wrong = self._laundry(folio_id, item.id, quantity + rng.randint(1, 3))
                reverse_line(self.conn, self.ctx.property_id, wrong, self.ctx.now())
            self._laundry(folio_id, item.id, quantity)

    def _laundry(self, folio_id: int, item_id: int, quantity: int) -> int:
        return post_charge(self.conn, self.ctx.property_id, folio_id,
                           ChargeInput(item_id=item_id, quantity=Decimal(quantity)),
                           self.ctx.business_date(), self.ctx.now())
