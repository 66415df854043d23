"""The day of a hotel, played on a simulated clock through the domain services.

A day D (the business date) runs its actions in time order (hotel local time); an action may
schedule later ones (a same-day booking schedules its check-in):

  06:30  the cashier settles the no-shows of the last audit
  08:30  the accounts and departed guests whose payment is due pay (cashier.py)
  07:00  breakfast tickets (B&B plans: every person but infants; others now and then)
  07:30  check-outs of the day's departures and early departures, folios settled and closed
  all day  bookings made today, option confirmations, modifications, cancellations
  09:00  rooms assigned to the day's arrivals
  10:00  now and then a room goes out of order for a few nights
  12:30  housekeeping cleans dirty rooms; 15:30 inspects some
  10:30  laundry of long stays, posted by the desk (now and then reversed and posted again)
  12-22  check-ins at each booking's arrival time, guests placed, some deposits
  18-23  restaurant and bar tickets
  23:30  city tax and parking of the night D
  02:00 (D+1)  night audit of every property

All randomness comes from generators seeded with (seed, hotel, date, purpose).
"""

from __future__ import annotations

import heapq
import itertools
import json
import random
import sqlite3
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, date, datetime, time, timedelta
from functools import partial
from pathlib import Path
from zoneinfo import ZoneInfo

from ..clock import SimulatedClock
from ..context import SandboxState, system_ctx
from ..db import all_rows, iso, one, transaction
from ..errors import ApiError
from ..services.city_tax import night_tax, rule_on
from ..services.night_audit import AuditResult, run_night_audit
from ..settings import save_clock
from .booking import BookingEngine
from .cashier import Cashier
from .demand import BookingPlan
from .demand_book import DemandBook
from .frontdesk import FrontDesk
from .hotel import HotelData, load_hotel
from .params import SimParams
from .pos import PosTerminal, TicketLine, export_ledger
from .sampling import rng_for

AUDIT_MINUTE = 2 * 60
"""The night audit of D runs at 02:00 local time on D + 1."""

Action = Callable[[], None]


def minute_of(hhmm: str) -> int:
    hours, minutes = hhmm.split(":")
    return int(hours) * 60 + int(minutes)


class DayQueue:
    """Actions of one day in time order; equal times keep the order they were added."""

    def __init__(self) -> None:
        self._heap: list[tuple[int, int, Action]] = []
        self._order = itertools.count()

    def add(self, minute: int, action: Action) -> None:
        heapq.heappush(self._heap, (minute, next(self._order), action))

    def pop(self) -> tuple[int, Action] | None:
        if not self._heap:
            return None
        minute, _, action = heapq.heappop(self._heap)
        return minute, action


@dataclass
class HotelSim:
    """One hotel's booking engine, front desk and POS, and the plans of its demand."""

    state: SandboxState
    hotel: HotelData
    seed: int
    params: SimParams
    first_arrival: date
    """The first arrival date demand is generated for (the hotel's first simulated day)."""
    first_booking_day: date
    """Plans booked earlier than this day are booked on it."""
    demand_origin: date
    """The first arrival date of the hotel's demand book (see demand_book.py)."""
    engine: BookingEngine = field(init=False)
    desk: FrontDesk = field(init=False)
    pos: PosTerminal = field(init=False)
    cashier: Cashier = field(init=False)
    by_booking_day: dict[date, list[BookingPlan]] = field(default_factory=dict)
    follow_ups: dict[date, list[tuple[int, str, BookingPlan]]] = field(default_factory=dict)
    plan_of_stay: dict[int, BookingPlan] = field(default_factory=dict)
    parking: set[int] = field(default_factory=set)
    generated_to: date = field(init=False)
    catch_up: bool = False
    """Plans booked before `first_booking_day` and not in the database yet: book them on that
    day (True: the simulator's first warm-up day) or leave them out (False: a running server
    starts from its book as it is; always False when the hotel already has bookings)."""

    def __post_init__(self) -> None:
        ctx = system_ctx(self.state, self.hotel.property_id)
        self.ctx = ctx
        self.engine = BookingEngine(ctx, self.hotel)
        self.desk = FrontDesk(ctx)
        self.pos = PosTerminal(ctx, self.hotel, self.params.pos.drop_share)
        self.cashier = Cashier(ctx, self.hotel, self.seed, self.params.money)
        self.book = DemandBook(self.params.demand, self.hotel.profile, self.seed,
                               self.demand_origin)
        self.generated_to = self.demand_origin
        if one(ctx.conn, "SELECT 1 FROM reservations WHERE property_id = ? LIMIT 1",
               self.property_id) is not None:
            self.catch_up = False

    @property
    def property_id(self) -> int:
        return self.hotel.property_id

    def ensure_demand(self, booking_day: date) -> None:
        """Generate every arrival a booking made on `booking_day` can be for."""
        demand = self.params.demand
        horizon = max(demand.lead_max_days, demand.long_lead_days[1]) + 1
        until = booking_day + timedelta(days=horizon)
        while self.generated_to < until:
            for plan in self.book.arrivals(self.generated_to):
                if plan.arrival < self.first_arrival:
                    self._attach(plan)
                elif plan.booked_on >= self.first_booking_day:
                    self.by_booking_day.setdefault(plan.booked_on, []).append(plan)
                elif not self._attach(plan) and self.catch_up:
                    self.by_booking_day.setdefault(self.first_booking_day, []).append(plan)
            self.generated_to += timedelta(days=1)

    def _attach(self, plan: BookingPlan) -> bool:
        """Take over a plan an earlier run booked (same seed): its follow-ups still to come."""
        row = one(self.ctx.conn, "SELECT id FROM reservations WHERE property_id = ? AND "
                  "external_ref = ?", self.property_id, plan.ref)
        if row is None:
            return False
        self._booked(plan, int(row["id"]), self.first_booking_day)
        return True

    def _booked(self, plan: BookingPlan, reservation_id: int, today: date,
                queue: DayQueue | None = None) -> None:
        """Remember the plan's stays and schedule its confirmation, change and cancellation."""
        self.engine.reservation_of[plan.ref] = reservation_id
        for row in all_rows(self.ctx.conn, "SELECT id FROM reservation_rooms WHERE "
                            "reservation_id = ?", reservation_id):
            self.plan_of_stay[row["id"]] = plan
        rng = rng_for(self.seed, self.property_id, "follow-ups", plan.ref)
        steps = (("confirm", plan.option_confirm_on, (9 * 60, 18 * 60)),
                 ("modify", plan.modification.on if plan.modification else None,
                  (8 * 60, 22 * 60)),
                 ("cancel", plan.cancel_on, (7 * 60, 23 * 60)))
        for kind, day, (earliest, latest) in steps:
            minute = rng.randint(earliest, latest)
            if day is None or day < today:
                continue
            if day == today and queue is not None:
                # Later today: straight onto the day's queue (it has been scheduled already).
                queue.add(max(minute, self._minute_now(today) + 1),
                          partial(self._run_follow_up, kind, plan))
            elif day > today or queue is None:
                self._follow_up(day, minute, kind, plan)

    def _follow_up(self, day: date, minute: int, kind: str, plan: BookingPlan) -> None:
        self.follow_ups.setdefault(day, []).append((minute, kind, plan))

    # -- the day -----------------------------------------------------------------------------

    def schedule(self, day: date, queue: DayQueue, full: bool) -> None:
        """Put the day's actions of this hotel on the queue (`full` False: bookings only)."""
        self.ensure_demand(day)
        rng = rng_for(self.seed, self.property_id, "day", iso(day))
        for plan in self.by_booking_day.pop(day, []):
            queue.add(plan.booked_minute, partial(self._book, day, queue, plan, full))
        for minute, kind, plan in self.follow_ups.pop(day, []):
            queue.add(minute, partial(self._run_follow_up, kind, plan))
        if not full:
            return
        queue.add(6 * 60 + 30, self._settle_no_shows)
        queue.add(8 * 60 + 30, lambda: self.cashier.collect_due(day))
        queue.add(10 * 60 + 30, lambda: self.cashier.laundry(self._in_house(day), rng))
        queue.add(7 * 60, lambda: self._breakfast(day, queue, rng))
        queue.add(7 * 60 + 30, lambda: self._departures(day, queue, rng))
        queue.add(9 * 60, lambda: self._arrivals(day, queue, rng))
        queue.add(10 * 60, lambda: self.desk.maybe_out_of_order(
            day, rng, self.params.out_of_order_per_month))
        queue.add(12 * 60 + 30, self.desk.clean_rooms)
        queue.add(15 * 60 + 30, lambda: self.desk.inspect_rooms(rng))
        queue.add(18 * 60, lambda: self._evening(day, queue, rng))
        queue.add(23 * 60 + 30, lambda: self._night_postings(day, rng))

    def _settle_no_shows(self) -> None:
        self.desk.stats.documents += self.cashier.settle_no_shows()

    def _book(self, day: date, queue: DayQueue, plan: BookingPlan, full: bool) -> None:
        terms = self.cashier.terms(plan)
        reservation_id = self.engine.create(plan, terms.plan_code)
        if reservation_id is None:
            return
        self.cashier.take_advance(reservation_id, terms)
        self._booked(plan, reservation_id, day, queue)
        if full and plan.arrival == day and not plan.no_show:
            # A booking for today: the guest comes at the arrival time (or soon after booking).
            now_minute = self._minute_now(day)
            arrival_minute = max(minute_of(plan.arrival_time), now_minute + 15)
            for stay_id in [s for s, p in self.plan_of_stay.items() if p is plan]:
                queue.add(min(arrival_minute, 23 * 60 + 20),
                          partial(self._check_in, stay_id, day))

    def _minute_now(self, day: date) -> int:
        local = self.ctx.now().astimezone(ZoneInfo(self.hotel.timezone))
        if local.date() != day:
            return 0
        return local.hour * 60 + local.minute

    def _run_follow_up(self, kind: str, plan: BookingPlan) -> None:
        reservation_id = self.engine.reservation_of.get(plan.ref)
        if kind == "confirm":
            self.engine.confirm(plan)
            if reservation_id is not None:
                self.cashier.take_advance(reservation_id, self.cashier.terms(plan))
        elif kind == "cancel":
            self.engine.cancel(plan)
            if reservation_id is not None:
                self.cashier.refund_cancelled(reservation_id)
        elif kind == "modify" and plan.modification is not None:
            change = plan.modification
            if change.arrival is not None and change.arrival < self.first_arrival:
                return  # nobody arrives before the hotel's first simulated day
            self.engine.modify(plan, change)
            if reservation_id is not None:
                self.cashier.refund_cancelled(reservation_id)  # rooms a group dropped

    def _in_house(self, night: date) -> list[sqlite3.Row]:
        """Rooms checked in and staying the night `night`, with their room code. (`+` keeps
        SQLite off the departure index, which reads the whole future book, for the status's.)"""
        return all_rows(
            self.ctx.conn, "SELECT s.*, r.code AS room_code FROM reservation_rooms s JOIN rooms r"
            " ON r.id = s.room_id WHERE s.property_id = ? AND s.status = 'checked_in' AND "
            "s.arrival <= ? AND +s.departure > ? ORDER BY s.id",
            self.property_id, iso(night), iso(night))

    def _persons(self, stay: sqlite3.Row) -> int:
        """Everyone but infants (breakfast)."""
        children: dict[str, int] = json.loads(stay["brackets"])
        return int(stay["adults"]) + sum(
            int(count) for bracket_id, count in children.items()
            if self.hotel.bracket_codes.get(int(bracket_id)) != "INF")

    def _children_by_age(self, stay: sqlite3.Row) -> Counter[int]:
        """Children of the stay by the `age_to` of their bracket (city tax)."""
        ages: Counter[int] = Counter()
        for bracket_id, count in json.loads(stay["brackets"]).items():
            ages[self.hotel.bracket_age_to[int(bracket_id)]] += int(count)
        return ages

    def _breakfast(self, day: date, queue: DayQueue, rng: random.Random) -> None:
        bb_plan = self.hotel.plan_ids.get("BB")
        for stay in self._in_house(day - timedelta(days=1)):
            persons = self._persons(stay)
            if stay["rate_plan_id"] == bb_plan:
                quantity = persons
            elif rng.random() < 0.08:
                quantity = rng.randint(1, persons)
            else:
                continue
            minute = rng.randint(7 * 60, 10 * 60 + 30)
            queue.add(minute, partial(
                self._ticket, stay, [TicketLine("BRK", quantity)], day, rng))

    def _ticket(self, stay: sqlite3.Row, lines: list[TicketLine], day: date,
                rng: random.Random) -> None:
        current = one(self.ctx.conn, "SELECT status FROM reservation_rooms WHERE id = ?",
                      stay["id"])
        if current is None or current["status"] != "checked_in":
            return
        self.pos.ticket(stay, stay["room_code"], lines, day, rng)

    def _departures(self, day: date, queue: DayQueue, rng: random.Random) -> None:
        nonref = self.hotel.plan_ids.get("NREF")
        for stay in all_rows(
            self.ctx.conn, "SELECT s.*, r.code AS room_code FROM reservation_rooms s JOIN rooms r"
            " ON r.id = s.room_id WHERE s.property_id = ? AND s.status = 'checked_in' AND "
            "s.arrival <= ? ORDER BY s.id", self.property_id, iso(day)):
            departure = date.fromisoformat(stay["departure"])
            plan = self.plan_of_stay.get(stay["id"])
            early = (departure > day and plan is not None and plan.nights_stayed is not None
                     and date.fromisoformat(stay["arrival"])
                     + timedelta(days=plan.nights_stayed) == day)
            if departure > day and not early:
                continue
            minute = rng.randint(7 * 60 + 30, 11 * 60)
            if rng.random() < self.params.pos.minibar_share:
                lines = [TicketLine("MINI", rng.randint(1, 4))]
                queue.add(minute - 1, partial(self._ticket, stay, lines, day, rng))
            full_period = stay["rate_plan_id"] == nonref
            queue.add(minute, partial(self._check_out, stay["id"], early, full_period))

    def _check_out(self, stay_id: int, early: bool, full_period: bool) -> None:
        terms = self.cashier.terms(self.plan_of_stay.get(stay_id))
        current = one(self.ctx.conn, "SELECT status FROM reservation_rooms WHERE id = ?",
                      stay_id)
        if current is not None and current["status"] == "checked_in":
            self.cashier.maybe_rebate(
                stay_id, rng_for(self.seed, self.property_id, "rebate", stay_id))
        self.desk.check_out(stay_id, early, full_period,
                            partial(self.cashier.settle, terms=terms))
        self.parking.discard(stay_id)

    def _arrivals(self, day: date, queue: DayQueue, rng: random.Random) -> None:
        for stay in all_rows(self.ctx.conn, "SELECT * FROM reservation_rooms WHERE "
                             "property_id = ? AND status = 'confirmed' AND arrival = ? "
                             "ORDER BY id", self.property_id, iso(day)):
            plan = self.plan_of_stay.get(stay["id"])
            if plan is not None and plan.no_show:
                continue
            self.desk.assign(stay)
            minute = max(minute_of(stay["arrival_time"] or "14:00"), 9 * 60 + 1)
            queue.add(minute, partial(self._check_in, stay["id"], day))

    def _check_in(self, stay_id: int, day: date) -> None:
        rng = rng_for(self.seed, self.property_id, "check-in", stay_id)
        plan = self.plan_of_stay.get(stay_id)
        last_name = plan.booker.last_name if plan is not None else "Guest"
        if not self.desk.check_in(stay_id, rng, last_name):
            return
        self.cashier.at_check_in(stay_id, self.cashier.terms(plan), rng)
        if rng.random() < self.params.pos.parking_share:
            self.parking.add(stay_id)

    def _evening(self, day: date, queue: DayQueue, rng: random.Random) -> None:
        pos = self.params.pos
        for stay in self._in_house(day):
            adults = int(stay["adults"])
            if rng.random() < pos.restaurant_share:
                covers = rng.randint(1, adults + 1)
                lines = [TicketLine("RST", covers, rng.randint(28, 60) * 100)]
                if rng.random() < 0.5:
                    lines.append(TicketLine("BAR", rng.randint(1, 3)))
                queue.add(rng.randint(19 * 60, 22 * 60 + 30),
                          partial(self._ticket, stay, lines, day, rng))
            if rng.random() < pos.bar_share:
                lines = [TicketLine("BAR", rng.randint(1, 4))]
                queue.add(rng.randint(18 * 60, 23 * 60 + 20),
                          partial(self._ticket, stay, lines, day, rng))

    def _night_postings(self, day: date, rng: random.Random) -> None:
        pos = self.params.pos
        house_use = self.hotel.plan_ids.get("HOUSE")
        for stay in self._in_house(day):
            if stay["rate_plan_id"] == house_use:
                continue  # staff of the hotel: no city tax, no parking
            owed = night_tax(rule_on(self.hotel.city, day, pos.city_tax_rules), self.hotel.stars,
                             (day - date.fromisoformat(stay["arrival"])).days,
                             int(stay["adults"]), self._children_by_age(stay))
            if owed is not None:
                self.pos.city_tax(stay, stay["room_code"], *owed, day, rng)
            if stay["id"] in self.parking:
                self.pos.ticket(stay, stay["room_code"], [TicketLine("PARK", 1)], day, rng)


@dataclass
class DayReport:
    day: date
    audits: list[AuditResult]


@dataclass
class Simulation:
    """Drives the clock through days for the hotels simulated; audits every property."""

    state: SandboxState
    clock: SimulatedClock
    seed: int
    property_ids: tuple[int, ...]
    first_arrival: date
    first_booking_day: date
    demand_origin: date
    params: SimParams = field(default_factory=SimParams)
    pos_export: Path | None = None
    catch_up: bool = False
    hotels: list[HotelSim] = field(init=False)
    failures: Counter[str] = field(default_factory=Counter)
    """Actions a service refused unexpectedly, by action and error code."""

    def __post_init__(self) -> None:
        conn = self.state.conn
        self.hotels = [
            HotelSim(self.state, load_hotel(conn, pid), self.seed, self.params,
                     self.first_arrival, self.first_booking_day, self.demand_origin,
                     catch_up=self.catch_up)
            for pid in self.property_ids
        ]
        self.timezone = ZoneInfo(self.hotels[0].hotel.timezone if self.hotels
                                 else "Europe/Rome")

    def at(self, day: date, minute: int) -> datetime:
        local = datetime.combine(day, time(0), tzinfo=self.timezone) + timedelta(minutes=minute)
        return local.astimezone(UTC)

    def _move_clock(self, instant: datetime) -> None:
        if instant > self.clock.now():
            self.clock.set(instant)

    def play_day(self, day: date, full: bool = True) -> DayReport:
        """Play the business date `day` of every hotel, then the night audit of every property.

        Every property's business date must be `day` (the audit closes it).
        """
        conn = self.state.conn
        queue = DayQueue()
        with transaction(conn):
            for hotel in self.hotels:
                hotel.schedule(day, queue, full)
            while (item := queue.pop()) is not None:
                minute, action = item
                self._move_clock(self.at(day, minute))
                try:
                    with transaction(conn):
                        action()
                except ApiError as error:
                    # A refusal the simulator did not expect: the action leaves no trace and
                    # the day goes on; the report counts it (the tests require none).
                    name = getattr(action, "func", action).__name__
                    self.failures[f"{name}: {error.status} {error.code.value}"] += 1
            self._move_clock(self.at(day + timedelta(days=1), AUDIT_MINUTE))
            audits = audit_through(self.state, day)
            save_clock(conn, self.clock)
        if self.pos_export is not None and full:
            for hotel in self.hotels:
                export_ledger(conn, hotel.property_id, hotel.hotel.profile.code, day,
                              self.pos_export)
        return DayReport(day, audits)


def audit_through(state: SandboxState, day: date,
                  property_ids: tuple[int, ...] | None = None) -> list[AuditResult]:
    """Close every business date up to `day` of each property (all when None); a property
    already past `day` is left alone."""
    audits = []
    for row in all_rows(state.conn, "SELECT id, business_date FROM properties ORDER BY id"):
        if property_ids is not None and row["id"] not in property_ids:
            continue
        ctx = system_ctx(state, row["id"])
        current = date.fromisoformat(row["business_date"])
        while current <= day:
            audits.append(run_night_audit(ctx, current))
            current += timedelta(days=1)
    return audits
