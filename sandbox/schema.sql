-- Sandbox PMS storage (SQLite). Money is INTEGER cents (`*_cents`); quantities and percentages
-- are decimal strings (TEXT); dates are 'YYYY-MM-DD'; timestamps 'YYYY-MM-DDTHH:MM:SSZ'.
PRAGMA foreign_keys = ON;

CREATE TABLE IF NOT EXISTS settings (
    name  TEXT PRIMARY KEY,
    value TEXT NOT NULL            -- JSON
);

CREATE TABLE IF NOT EXISTS accounts (
    id                      INTEGER PRIMARY KEY,
    name                    TEXT NOT NULL,
    plan                    TEXT NOT NULL,
    sandbox                 INTEGER NOT NULL DEFAULT 1,
    suspended               INTEGER NOT NULL DEFAULT 0,
    subscription_expired    INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS properties (
    id                  INTEGER PRIMARY KEY,
    account_id          INTEGER NOT NULL REFERENCES accounts(id),
    code                TEXT NOT NULL,
    name                TEXT NOT NULL,
    legal_name          TEXT NOT NULL DEFAULT '',
    activity            TEXT NOT NULL DEFAULT 'hotel',
    address             TEXT NOT NULL DEFAULT '',
    zip                 TEXT NOT NULL DEFAULT '',
    city                TEXT NOT NULL DEFAULT '',
    province            TEXT NOT NULL DEFAULT '',
    country             TEXT NOT NULL DEFAULT 'IT',
    phone               TEXT NOT NULL DEFAULT '',
    email               TEXT NOT NULL DEFAULT '',
    website             TEXT NOT NULL DEFAULT '',
    star_rating         TEXT NOT NULL DEFAULT '',
    latitude            TEXT,
    longitude           TEXT,
    currency            TEXT NOT NULL DEFAULT 'EUR',
    timezone            TEXT NOT NULL DEFAULT 'Europe/Rome',
    check_in_time       TEXT NOT NULL DEFAULT '14:00',
    check_out_time      TEXT NOT NULL DEFAULT '11:00',
    business_date       TEXT NOT NULL,
    api_enabled         INTEGER NOT NULL DEFAULT 1,
    read_only           INTEGER NOT NULL DEFAULT 0,   -- seasonal pause: writes answer 423
    booker_is_guest     INTEGER NOT NULL DEFAULT 1,   -- the property's rule for booker_is_guest
    required_source     INTEGER NOT NULL DEFAULT 0,
    required_channel    INTEGER NOT NULL DEFAULT 0,
    required_market     INTEGER NOT NULL DEFAULT 1,
    accommodation_vat_pct TEXT NOT NULL DEFAULT '10'
);

CREATE TABLE IF NOT EXISTS api_keys (
    id          INTEGER PRIMARY KEY,
    property_id INTEGER NOT NULL REFERENCES properties(id),
    name        TEXT NOT NULL,
    key_hash    TEXT NOT NULL UNIQUE,     -- sha256 hex of the key; the key itself is not stored
    prefix      TEXT NOT NULL,
    scopes      TEXT NOT NULL,            -- JSON array
    created_at  TEXT NOT NULL,
    revoked_at  TEXT
);

CREATE TABLE IF NOT EXISTS room_types (
    id           INTEGER PRIMARY KEY,
    property_id  INTEGER NOT NULL REFERENCES properties(id),
    code         TEXT NOT NULL,
    name         TEXT NOT NULL,
    channel_code TEXT NOT NULL,
    max_pax      INTEGER NOT NULL,
    is_virtual   INTEGER NOT NULL DEFAULT 0,
    base_price_cents INTEGER NOT NULL,       -- rate engine: the grid's reference price
    sort         INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS rooms (
    id           INTEGER PRIMARY KEY,
    property_id  INTEGER NOT NULL REFERENCES properties(id),
    room_type_id INTEGER NOT NULL REFERENCES room_types(id),
    code         TEXT NOT NULL,
    name         TEXT NOT NULL,
    floor        TEXT,
    extra_beds   INTEGER NOT NULL DEFAULT 0,
    housekeeping TEXT NOT NULL DEFAULT 'clean',
    sellable     INTEGER NOT NULL DEFAULT 1
);

-- A room out of order for the nights [from_date, to_date).
CREATE TABLE IF NOT EXISTS room_blocks (
    id          INTEGER PRIMARY KEY,
    property_id INTEGER NOT NULL REFERENCES properties(id),
    room_id     INTEGER NOT NULL REFERENCES rooms(id),
    from_date   TEXT NOT NULL,
    to_date     TEXT NOT NULL,
    reason      TEXT NOT NULL DEFAULT ''
);

-- Rate engine: price of a room type per season and weekday (0 = Monday).
CREATE TABLE IF NOT EXISTS seasons (
    property_id INTEGER NOT NULL REFERENCES properties(id),
    month       INTEGER NOT NULL,          -- 1..12
    season      TEXT NOT NULL,             -- low, mid, high
    PRIMARY KEY (property_id, month)
);

CREATE TABLE IF NOT EXISTS price_grid (
    property_id  INTEGER NOT NULL REFERENCES properties(id),
    room_type_id INTEGER NOT NULL REFERENCES room_types(id),
    season       TEXT NOT NULL,
    weekday      INTEGER NOT NULL,
    price_cents  INTEGER NOT NULL,         -- price of the room for one night, VAT included
    PRIMARY KEY (room_type_id, season, weekday)
);

CREATE TABLE IF NOT EXISTS rate_plans (
    id                 INTEGER PRIMARY KEY,
    property_id        INTEGER NOT NULL REFERENCES properties(id),
    code               TEXT NOT NULL,
    name               TEXT NOT NULL,
    discount_pct       TEXT NOT NULL DEFAULT '0',
    is_default         INTEGER NOT NULL DEFAULT 0,
    per_person         INTEGER NOT NULL DEFAULT 0,
    cadence            TEXT NOT NULL DEFAULT 'daily',
    active             INTEGER NOT NULL DEFAULT 1,
    is_contract        INTEGER NOT NULL DEFAULT 0,
    refundable         INTEGER NOT NULL DEFAULT 1,
    includes_breakfast INTEGER NOT NULL DEFAULT 0,
    -- per-person plans: an adult pays this share of the grid price
    adult_price_pct    TEXT NOT NULL DEFAULT '50'
);

CREATE TABLE IF NOT EXISTS offers (
    id           INTEGER PRIMARY KEY,
    property_id  INTEGER NOT NULL REFERENCES properties(id),
    code         TEXT NOT NULL,
    name         TEXT NOT NULL,
    discount_pct TEXT NOT NULL,
    active       INTEGER NOT NULL DEFAULT 1
);

CREATE TABLE IF NOT EXISTS age_brackets (
    id               INTEGER PRIMARY KEY,
    property_id      INTEGER NOT NULL REFERENCES properties(id),
    code             TEXT NOT NULL,
    name             TEXT NOT NULL,
    age_from         INTEGER,
    age_to           INTEGER,
    counts_as_person INTEGER NOT NULL DEFAULT 1,
    -- per-person plans: a child of this bracket pays this share of an adult's price
    price_pct        TEXT NOT NULL DEFAULT '0',
    sort             INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE IF NOT EXISTS items (
    id          INTEGER PRIMARY KEY,
    property_id INTEGER NOT NULL REFERENCES properties(id),
    code        TEXT NOT NULL,
    name        TEXT NOT NULL,
    department  TEXT NOT NULL,
    kind        TEXT NOT NULL,
    price_cents INTEGER NOT NULL,
    tax_pct     TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS classifications (
    property_id INTEGER NOT NULL REFERENCES properties(id),
    kind        TEXT NOT NULL CHECK (kind IN ('source', 'channel', 'market')),
    value       TEXT NOT NULL,
    sort        INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (property_id, kind, value)
);

-- The guest archive; bookers (parties) are archive records too.
CREATE TABLE IF NOT EXISTS guests (
    id             INTEGER PRIMARY KEY,
    property_id    INTEGER NOT NULL REFERENCES properties(id),
    kind           TEXT NOT NULL DEFAULT 'private',
    display_name   TEXT NOT NULL,
    fields         TEXT NOT NULL DEFAULT '{}',   -- JSON: every GuestInput field sent, extras included
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS reservations (
    id                INTEGER PRIMARY KEY,
    property_id       INTEGER NOT NULL REFERENCES properties(id),
    type              TEXT NOT NULL DEFAULT 'individual',
    booker_id         INTEGER REFERENCES guests(id),
    billing_party_id  INTEGER REFERENCES guests(id),
    booker_reference  TEXT NOT NULL DEFAULT '',
    booking_code      TEXT NOT NULL DEFAULT '',
    external_ref      TEXT NOT NULL DEFAULT '',
    channel           TEXT NOT NULL DEFAULT '',
    source            TEXT NOT NULL DEFAULT '',
    market            TEXT NOT NULL DEFAULT '',
    group_name        TEXT NOT NULL DEFAULT '',
    notes             TEXT NOT NULL DEFAULT '',
    voucher           TEXT NOT NULL DEFAULT '',
    option_expires_on TEXT,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL    -- latest change of the head or of any room
);
CREATE UNIQUE INDEX IF NOT EXISTS reservations_external_ref
    ON reservations (property_id, external_ref) WHERE external_ref <> '';
CREATE INDEX IF NOT EXISTS reservations_updated ON reservations (property_id, updated_at);

CREATE TABLE IF NOT EXISTS reservation_rooms (
    id                 INTEGER PRIMARY KEY,
    reservation_id     INTEGER NOT NULL REFERENCES reservations(id),
    property_id        INTEGER NOT NULL REFERENCES properties(id),
    status             TEXT NOT NULL,
    arrival            TEXT NOT NULL,
    departure          TEXT NOT NULL,
    arrival_time       TEXT NOT NULL DEFAULT '',
    adults             INTEGER NOT NULL DEFAULT 1,
    brackets           TEXT NOT NULL DEFAULT '{}',   -- JSON {bracket_id: count}
    room_type_id       INTEGER NOT NULL REFERENCES room_types(id),
    room_id            INTEGER REFERENCES rooms(id),
    rate_plan_id       INTEGER REFERENCES rate_plans(id),
    offer_id           INTEGER REFERENCES offers(id),
    discount_pct       TEXT NOT NULL DEFAULT '0',
    price_override_cents INTEGER,
    option_expires_on  TEXT,
    cancelled_by       TEXT,
    no_show            INTEGER NOT NULL DEFAULT 0,
    checked_in_at      TEXT,
    checked_out_at     TEXT,
    notes              TEXT NOT NULL DEFAULT '',
    total_cents        INTEGER NOT NULL DEFAULT 0,
    created_at         TEXT NOT NULL,
    updated_at         TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS rooms_by_reservation ON reservation_rooms (reservation_id);
CREATE INDEX IF NOT EXISTS rooms_by_dates ON reservation_rooms (property_id, arrival, departure);

-- The price of each night of a stay, as priced by the rate engine (sum = total_cents).
CREATE TABLE IF NOT EXISTS stay_nights (
    reservation_room_id INTEGER NOT NULL REFERENCES reservation_rooms(id),
    night               TEXT NOT NULL,
    price_cents         INTEGER NOT NULL,
    PRIMARY KEY (reservation_room_id, night)
);

CREATE TABLE IF NOT EXISTS stay_guests (
    id                  INTEGER PRIMARY KEY,     -- the placement id
    reservation_room_id INTEGER NOT NULL REFERENCES reservation_rooms(id),
    guest_id            INTEGER NOT NULL REFERENCES guests(id),
    is_main             INTEGER NOT NULL DEFAULT 0,
    created_at          TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS folios (
    id                  INTEGER PRIMARY KEY,
    property_id         INTEGER NOT NULL REFERENCES properties(id),
    reservation_id      INTEGER REFERENCES reservations(id),
    reservation_room_id INTEGER REFERENCES reservation_rooms(id),
    guest_id            INTEGER REFERENCES guests(id),
    guest_name          TEXT NOT NULL DEFAULT '',
    description         TEXT NOT NULL DEFAULT '',
    status              TEXT NOT NULL DEFAULT 'open',
    document            TEXT,
    issue_date          TEXT,
    prices_include_vat  INTEGER NOT NULL DEFAULT 1,
    created_at          TEXT NOT NULL,
    updated_at          TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS folios_by_reservation ON folios (reservation_id);

CREATE TABLE IF NOT EXISTS folio_lines (
    id                  INTEGER PRIMARY KEY,
    folio_id            INTEGER NOT NULL REFERENCES folios(id),
    reservation_room_id INTEGER REFERENCES reservation_rooms(id),
    type                TEXT NOT NULL,          -- charge, payment, accommodation, ...
    description         TEXT NOT NULL,
    posted_on           TEXT NOT NULL,
    quantity            TEXT NOT NULL DEFAULT '1',
    unit_price_cents    INTEGER NOT NULL,
    discount_cents      INTEGER NOT NULL DEFAULT 0,
    tax_pct             TEXT NOT NULL DEFAULT '0',
    total_cents         INTEGER NOT NULL,       -- charges positive; a payment's amount positive too
    room                TEXT NOT NULL DEFAULT '',
    service_item_id     INTEGER REFERENCES items(id),
    reversal_of         INTEGER REFERENCES folio_lines(id),
    created_at          TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS lines_by_folio ON folio_lines (folio_id);

-- Fiscal document numbering per property and year.
CREATE TABLE IF NOT EXISTS document_counters (
    property_id INTEGER NOT NULL REFERENCES properties(id),
    year        INTEGER NOT NULL,
    last_number INTEGER NOT NULL,
    PRIMARY KEY (property_id, year)
);

CREATE TABLE IF NOT EXISTS events (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,   -- strictly increasing, never reused
    property_id INTEGER NOT NULL REFERENCES properties(id),
    type        TEXT NOT NULL,
    entity      TEXT NOT NULL,
    entity_id   INTEGER NOT NULL,
    data        TEXT NOT NULL,          -- JSON
    created_at  TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS events_by_property ON events (property_id, id);
CREATE INDEX IF NOT EXISTS events_by_time ON events (created_at);   -- 30-day retention

CREATE TABLE IF NOT EXISTS idempotency (
    api_key_id  INTEGER NOT NULL REFERENCES api_keys(id),
    idem_key    TEXT NOT NULL,
    method      TEXT NOT NULL,
    path        TEXT NOT NULL,
    body_hash   TEXT NOT NULL,
    status      INTEGER,                -- NULL while the first request is still running
    headers     TEXT,                   -- JSON list of [name, value]
    body        BLOB,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (api_key_id, idem_key)
);

CREATE TABLE IF NOT EXISTS webhooks (
    id                INTEGER PRIMARY KEY,
    property_id       INTEGER NOT NULL REFERENCES properties(id),
    url               TEXT NOT NULL,
    description       TEXT NOT NULL DEFAULT '',
    events            TEXT NOT NULL DEFAULT '[]',
    active            INTEGER NOT NULL DEFAULT 1,
    api_key_id        INTEGER REFERENCES api_keys(id),
    secret            TEXT NOT NULL,
    failures          INTEGER NOT NULL DEFAULT 0,
    first_failure_at  TEXT,
    disabled_reason   TEXT,
    last_delivered_at TEXT,
    last_event_id     INTEGER NOT NULL DEFAULT 0,
    last_status       INTEGER,
    last_error        TEXT,
    next_attempt_at   TEXT,
    created_at        TEXT NOT NULL,
    updated_at        TEXT NOT NULL
);

CREATE TABLE IF NOT EXISTS webhook_deliveries (
    id          INTEGER PRIMARY KEY,
    webhook_id  INTEGER NOT NULL REFERENCES webhooks(id),
    event_id    INTEGER NOT NULL,
    event_type  TEXT NOT NULL,
    attempt     INTEGER NOT NULL,
    status      INTEGER,
    error       TEXT,
    duration_ms INTEGER NOT NULL,
    created_at  TEXT NOT NULL
);

-- Night audit (sandbox/services/night_audit.py): one row per closed business date, and the
-- room night each audit charged, so a repeat never charges a night twice.
CREATE TABLE IF NOT EXISTS night_audits (
    property_id   INTEGER NOT NULL REFERENCES properties(id),
    business_date TEXT NOT NULL,
    ran_at        TEXT NOT NULL,
    summary       TEXT NOT NULL,            -- JSON: counts of the run
    PRIMARY KEY (property_id, business_date)
);

CREATE TABLE IF NOT EXISTS audit_room_charges (
    reservation_room_id INTEGER NOT NULL REFERENCES reservation_rooms(id),
    night               TEXT NOT NULL,
    folio_line_id       INTEGER NOT NULL REFERENCES folio_lines(id),
    PRIMARY KEY (reservation_room_id, night)
);

-- Simulator (sandbox/simulator/): the POS ledger (every POS charge, posted or not) and the
-- ground truth of postings that never reached a folio.
CREATE TABLE IF NOT EXISTS sim_pos_ledger (
    property_id         INTEGER NOT NULL REFERENCES properties(id),
    ticket_id           TEXT NOT NULL,
    line                INTEGER NOT NULL,
    business_date       TEXT NOT NULL,
    posted_at           TEXT NOT NULL,
    reservation_id      INTEGER NOT NULL,
    reservation_room_id INTEGER NOT NULL,
    room                TEXT NOT NULL,
    item_code           TEXT NOT NULL,
    quantity            TEXT NOT NULL,
    unit_price_cents    INTEGER NOT NULL,
    total_cents         INTEGER NOT NULL,
    folio_line_id       INTEGER,            -- NULL: dropped, never reached the folio
    PRIMARY KEY (property_id, ticket_id, line)
);
-- A day's ledger in the export's order (ticket, line), without walking the hotel's history.
CREATE INDEX IF NOT EXISTS sim_pos_ledger_by_day
    ON sim_pos_ledger (property_id, business_date, ticket_id, line);

CREATE TABLE IF NOT EXISTS sim_dropped_postings (
    id                  INTEGER PRIMARY KEY,
    property_id         INTEGER NOT NULL REFERENCES properties(id),
    kind                TEXT NOT NULL,      -- pos, city_tax
    business_date       TEXT NOT NULL,
    reservation_id      INTEGER NOT NULL,
    reservation_room_id INTEGER NOT NULL,
    room                TEXT NOT NULL,
    item_code           TEXT NOT NULL,
    ticket_id           TEXT,               -- pos: the ticket of the ledger
    line                INTEGER,
    quantity            TEXT NOT NULL,
    unit_price_cents    INTEGER NOT NULL,
    total_cents         INTEGER NOT NULL,
    description         TEXT NOT NULL
);

-- Lookups by external_ref (the partial unique index above is not used by `external_ref = ?`).
CREATE INDEX IF NOT EXISTS reservations_by_external_ref ON reservations (property_id, external_ref);
-- Indexes the simulator's volume needs (a year of an 80-room hotel): rooms' free-room checks,
-- the folios and guests of a room entry.
CREATE INDEX IF NOT EXISTS stays_by_room ON reservation_rooms (room_id);
CREATE INDEX IF NOT EXISTS blocks_by_room ON room_blocks (room_id);
CREATE INDEX IF NOT EXISTS folios_by_stay ON folios (reservation_room_id);
CREATE INDEX IF NOT EXISTS stay_guests_by_stay ON stay_guests (reservation_room_id);
CREATE INDEX IF NOT EXISTS stays_by_status_arrival ON reservation_rooms (property_id, status, arrival);
CREATE INDEX IF NOT EXISTS stays_by_departure ON reservation_rooms (property_id, departure);
-- The rooms held on a span of nights (availability, the simulator's occupancy): the stays not
-- cancelled that depart after the span begins, read from the index alone (no row lookups).
CREATE INDEX IF NOT EXISTS held_stays_by_departure ON reservation_rooms
    (property_id, departure, arrival, room_id, room_type_id) WHERE status <> 'cancelled';
-- A room's stays not cancelled from a night on (is the room free?), not the room's history.
CREATE INDEX IF NOT EXISTS held_stays_by_room ON reservation_rooms (room_id, departure, arrival)
    WHERE status <> 'cancelled';
-- The simulator's daily reads that would otherwise walk a property's whole history: the
-- no-shows (their folios settled the morning after), the suspended folios (receivables due)
-- and the accounts (companies, agencies) looked up by name.
CREATE INDEX IF NOT EXISTS no_show_stays ON reservation_rooms (property_id, departure)
    WHERE no_show = 1;
CREATE INDEX IF NOT EXISTS suspended_folios ON folios (property_id) WHERE status = 'suspended';
CREATE INDEX IF NOT EXISTS guests_by_name ON guests (property_id, display_name);
