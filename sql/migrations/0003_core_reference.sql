-- Property data: replaced per property on every sync (GET /property, /room-types, /rooms, /rate-plans,
-- /age-brackets, /items, /classifications).
CREATE TABLE core.property (
    property_id BIGINT NOT NULL PRIMARY KEY,
    code VARCHAR NOT NULL,
    name VARCHAR NOT NULL,
    legal_name VARCHAR,
    activity VARCHAR,
    address VARCHAR,
    zip VARCHAR,
    city VARCHAR,
    province VARCHAR,
    country VARCHAR,
    phone VARCHAR,
    email VARCHAR,
    website VARCHAR,
    star_rating VARCHAR,
    latitude DECIMAL(10,7),
    longitude DECIMAL(10,7),
    currency VARCHAR NOT NULL,
    timezone VARCHAR NOT NULL,
    check_in_time VARCHAR,
    check_out_time VARCHAR,
    business_date DATE NOT NULL,
    last_seen_run VARCHAR NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL
);
COMMENT ON TABLE core.property IS 'The property (GET /property), one row per property, replaced every sync.';
COMMENT ON COLUMN core.property.property_id IS 'Property id.';
COMMENT ON COLUMN core.property.code IS 'Short code of the property.';
COMMENT ON COLUMN core.property.name IS 'Commercial name.';
COMMENT ON COLUMN core.property.legal_name IS 'Legal name of the company running it.';
COMMENT ON COLUMN core.property.activity IS 'Free text kind of activity (hotel, b&b, apartments).';
COMMENT ON COLUMN core.property.address IS 'Street address.';
COMMENT ON COLUMN core.property.zip IS 'Postal code.';
COMMENT ON COLUMN core.property.city IS 'City.';
COMMENT ON COLUMN core.property.province IS 'Province or region code.';
COMMENT ON COLUMN core.property.country IS 'Country, ISO 3166-1 alpha-2.';
COMMENT ON COLUMN core.property.phone IS 'Phone number.';
COMMENT ON COLUMN core.property.email IS 'Contact e-mail.';
COMMENT ON COLUMN core.property.website IS 'Web site.';
COMMENT ON COLUMN core.property.star_rating IS 'Star rating as text (city tax rates depend on it).';
COMMENT ON COLUMN core.property.latitude IS 'Latitude in degrees; NULL when unknown.';
COMMENT ON COLUMN core.property.longitude IS 'Longitude in degrees; NULL when unknown.';
COMMENT ON COLUMN core.property.currency IS 'Currency code of every amount of the property.';
COMMENT ON COLUMN core.property.timezone IS 'Time zone name of the property (IANA).';
COMMENT ON COLUMN core.property.check_in_time IS 'Standard check-in time, HH:MM local.';
COMMENT ON COLUMN core.property.check_out_time IS 'Standard check-out time, HH:MM local.';
COMMENT ON COLUMN core.property.business_date IS 'Working date of the front desk when fetched: the day after the last night audit. The pipeline''s notion of today.';
COMMENT ON COLUMN core.property.last_seen_run IS 'Run that last landed the row.';
COMMENT ON COLUMN core.property.fetched_at IS 'Server time (HTTP Date) of the fetch that landed the row.';

CREATE TABLE core.room_types (
    property_id BIGINT NOT NULL,
    room_type_id BIGINT NOT NULL,
    code VARCHAR NOT NULL,
    name VARCHAR NOT NULL,
    channel_code VARCHAR,
    max_pax INTEGER NOT NULL,
    rooms INTEGER NOT NULL,
    last_seen_run VARCHAR NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (property_id, room_type_id)
);
COMMENT ON TABLE core.room_types IS 'Room types on sale (GET /room-types; virtual types are not listed by the API), replaced per property every sync.';
COMMENT ON COLUMN core.room_types.property_id IS 'Property id.';
COMMENT ON COLUMN core.room_types.room_type_id IS 'Room type id.';
COMMENT ON COLUMN core.room_types.code IS 'Room type code (STD, SUP, ...).';
COMMENT ON COLUMN core.room_types.name IS 'Room type name.';
COMMENT ON COLUMN core.room_types.channel_code IS 'Code of the type on sales channels.';
COMMENT ON COLUMN core.room_types.max_pax IS 'Maximum persons in a room of the type.';
COMMENT ON COLUMN core.room_types.rooms IS 'Rooms of the type on sale.';
COMMENT ON COLUMN core.room_types.last_seen_run IS 'Run that last landed the row.';
COMMENT ON COLUMN core.room_types.fetched_at IS 'Server time (HTTP Date) of the fetch that landed the row.';

CREATE TABLE core.rooms (
    property_id BIGINT NOT NULL,
    room_id BIGINT NOT NULL,
    code VARCHAR NOT NULL,
    name VARCHAR,
    room_type_id BIGINT NOT NULL,
    floor VARCHAR,
    extra_beds INTEGER NOT NULL,
    housekeeping VARCHAR NOT NULL,
    sellable BOOLEAN NOT NULL,
    last_seen_run VARCHAR NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (property_id, room_id)
);
COMMENT ON TABLE core.rooms IS 'Physical rooms (GET /rooms), replaced per property every sync.';
COMMENT ON COLUMN core.rooms.property_id IS 'Property id.';
COMMENT ON COLUMN core.rooms.room_id IS 'Room id (the physical room).';
COMMENT ON COLUMN core.rooms.code IS 'Room number as shown to guests; folio lines and the POS ledger refer to rooms by it.';
COMMENT ON COLUMN core.rooms.name IS 'Room name.';
COMMENT ON COLUMN core.rooms.room_type_id IS 'Room type of the room (core.room_types).';
COMMENT ON COLUMN core.rooms.floor IS 'Floor; NULL when unknown.';
COMMENT ON COLUMN core.rooms.extra_beds IS 'Extra beds the room can take.';
COMMENT ON COLUMN core.rooms.housekeeping IS 'Housekeeping state when fetched: clean, dirty or inspected.';
COMMENT ON COLUMN core.rooms.sellable IS 'False when the room is kept out of availability.';
COMMENT ON COLUMN core.rooms.last_seen_run IS 'Run that last landed the row.';
COMMENT ON COLUMN core.rooms.fetched_at IS 'Server time (HTTP Date) of the fetch that landed the row.';

CREATE TABLE core.rate_plans (
    property_id BIGINT NOT NULL,
    rate_plan_id BIGINT NOT NULL,
    code VARCHAR NOT NULL,
    name VARCHAR NOT NULL,
    discount_pct DECIMAL(7,4) NOT NULL,
    is_default BOOLEAN NOT NULL,
    per_person BOOLEAN NOT NULL,
    cadence VARCHAR NOT NULL,
    last_seen_run VARCHAR NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (property_id, rate_plan_id)
);
COMMENT ON TABLE core.rate_plans IS 'Active rate plans (GET /rate-plans; negotiated contract plans are not listed by the API, so stays may refer to plans absent here), replaced per property every sync.';
COMMENT ON COLUMN core.rate_plans.property_id IS 'Property id.';
COMMENT ON COLUMN core.rate_plans.rate_plan_id IS 'Rate plan id.';
COMMENT ON COLUMN core.rate_plans.code IS 'Rate plan code.';
COMMENT ON COLUMN core.rate_plans.name IS 'Rate plan name.';
COMMENT ON COLUMN core.rate_plans.discount_pct IS 'Discount of the plan on the price grid, percent.';
COMMENT ON COLUMN core.rate_plans.is_default IS 'True for the plan used when a booking names none.';
COMMENT ON COLUMN core.rate_plans.per_person IS 'True when the plan prices per person.';
COMMENT ON COLUMN core.rate_plans.cadence IS 'How the room charge is posted: daily, weekly, monthly or month_start.';
COMMENT ON COLUMN core.rate_plans.last_seen_run IS 'Run that last landed the row.';
COMMENT ON COLUMN core.rate_plans.fetched_at IS 'Server time (HTTP Date) of the fetch that landed the row.';

CREATE TABLE core.age_brackets (
    property_id BIGINT NOT NULL,
    age_bracket_id BIGINT NOT NULL,
    code VARCHAR NOT NULL,
    name VARCHAR NOT NULL,
    age_from INTEGER,
    age_to INTEGER,
    counts_as_person BOOLEAN NOT NULL,
    last_seen_run VARCHAR NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (property_id, age_bracket_id)
);
COMMENT ON TABLE core.age_brackets IS 'Age brackets of children (GET /age-brackets); the keys of the brackets maps of stays. Replaced per property every sync.';
COMMENT ON COLUMN core.age_brackets.property_id IS 'Property id.';
COMMENT ON COLUMN core.age_brackets.age_bracket_id IS 'Age bracket id (key of reservation_rooms.brackets).';
COMMENT ON COLUMN core.age_brackets.code IS 'Bracket code.';
COMMENT ON COLUMN core.age_brackets.name IS 'Bracket name.';
COMMENT ON COLUMN core.age_brackets.age_from IS 'Lowest age in the bracket, inclusive; NULL when open.';
COMMENT ON COLUMN core.age_brackets.age_to IS 'Highest age in the bracket, inclusive; NULL when open.';
COMMENT ON COLUMN core.age_brackets.counts_as_person IS 'True when a child of the bracket counts as a person (persons = adults + children of such brackets).';
COMMENT ON COLUMN core.age_brackets.last_seen_run IS 'Run that last landed the row.';
COMMENT ON COLUMN core.age_brackets.fetched_at IS 'Server time (HTTP Date) of the fetch that landed the row.';

CREATE TABLE core.items (
    property_id BIGINT NOT NULL,
    item_id BIGINT NOT NULL,
    code VARCHAR NOT NULL,
    name VARCHAR NOT NULL,
    department VARCHAR NOT NULL,
    kind VARCHAR NOT NULL,
    price DECIMAL(12,2) NOT NULL,
    tax_pct DECIMAL(7,4) NOT NULL,
    last_seen_run VARCHAR NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (property_id, item_id)
);
COMMENT ON TABLE core.items IS 'Chargeable items (GET /items): the service_item_id of folio lines and the item_code of the POS ledger. Replaced per property every sync.';
COMMENT ON COLUMN core.items.property_id IS 'Property id.';
COMMENT ON COLUMN core.items.item_id IS 'Item id (folio_lines.service_item_id).';
COMMENT ON COLUMN core.items.code IS 'Item code (pos_ledger.item_code).';
COMMENT ON COLUMN core.items.name IS 'Item name.';
COMMENT ON COLUMN core.items.department IS 'Department the item belongs to (accommodation, food and beverage, ...).';
COMMENT ON COLUMN core.items.kind IS 'Kind of item as the PMS names it.';
COMMENT ON COLUMN core.items.price IS 'List price, VAT included unless the folio says otherwise.';
COMMENT ON COLUMN core.items.tax_pct IS 'VAT rate, percent (0 for city tax, outside VAT).';
COMMENT ON COLUMN core.items.last_seen_run IS 'Run that last landed the row.';
COMMENT ON COLUMN core.items.fetched_at IS 'Server time (HTTP Date) of the fetch that landed the row.';

CREATE TABLE core.classifications (
    property_id BIGINT NOT NULL,
    kind VARCHAR NOT NULL,
    value VARCHAR NOT NULL,
    required BOOLEAN NOT NULL,
    last_seen_run VARCHAR NOT NULL,
    fetched_at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (property_id, kind, value)
);
COMMENT ON TABLE core.classifications IS 'Allowed reservation classifications (GET /classifications), one row per kind and value. Replaced per property every sync.';
COMMENT ON COLUMN core.classifications.property_id IS 'Property id.';
COMMENT ON COLUMN core.classifications.kind IS 'source, channel or market.';
COMMENT ON COLUMN core.classifications.value IS 'An allowed value of the kind.';
COMMENT ON COLUMN core.classifications.required IS 'True when the property makes this kind mandatory on reservations (same for every value of the kind).';
COMMENT ON COLUMN core.classifications.last_seen_run IS 'Run that last landed the row.';
COMMENT ON COLUMN core.classifications.fetched_at IS 'Server time (HTTP Date) of the fetch that landed the row.';
