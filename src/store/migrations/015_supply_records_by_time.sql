-- supply_records takes one row per asset, kind and source at every tick (300 with the demo's coins) and is read by
-- nothing on the way to an answer (supply_latest holds what start-up needs). Keyed by asset first, each tick's rows
-- landed on as many leaf pages of its index as it has keys: after a restart, 300 cold pages read one by one by the
-- embedded store (about 100 ms of the first tick, before ready). The same key with time first: a tick's rows go to
-- the right-hand end of the index, as rows arriving in time order do.
ALTER TABLE supply_records DROP CONSTRAINT supply_records_pkey;
ALTER TABLE supply_records ADD PRIMARY KEY (ts, asset, kind, source);
