-- What a no-show is, as pipelines/transforms/no_shows.py decides it (docs/kpi.md, No-show):
-- the comment of 0009 said "cancelled by the night audit", which is how the sandbox does it,
-- not the rule the transform applies. Comments only; no table changes.
COMMENT ON COLUMN mart.stay_nights.is_no_show IS 'True when the room entry is a no-show: cancelled by the hotel on or after its arrival date, and a firm booking (not an option lapsing; for an entry never seen before its cancellation, the accommodation line posted on its arrival date decides). Never a room sold; its charge is a fee (mart.room_fees, fee_kind no_show).';
