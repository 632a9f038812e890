-- Primary names (reverse resolution, docs/names.md "Primary names"): the name an address's holder chose to be known
-- by for one coin. One per (asset, address): choosing another name replaces it. A row is served only while it is
-- forward-verified (the name is public and still resolves to that address for that coin); transfers, unlinks and
-- relinks delete the rows they invalidate. Times are UNIX milliseconds (bigint).
CREATE TABLE primary_names (
  asset text NOT NULL,
  address text NOT NULL,
  label text NOT NULL REFERENCES names (label) ON DELETE CASCADE,
  updated_at bigint NOT NULL,
  PRIMARY KEY (asset, address)
);

-- A name's primaries (cleared when the name is transferred, unlinked or relinked).
CREATE INDEX primary_names_label ON primary_names (label, asset);

-- What a proof-of-control challenge is for: linking an address to a name, or making a name an address's primary. A
-- signature over one kind of challenge never serves the other.
ALTER TABLE name_challenges ADD COLUMN purpose text NOT NULL DEFAULT 'link' CHECK (purpose IN ('link', 'primary'));
