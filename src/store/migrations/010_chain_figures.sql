-- Chain figures that coin nodes report with each observation of `mining_figures` (the seeded demo leaves them NULL):
-- the tip's height and block time (UNIX ms), and the network hashrate as the node computes it (`getnetworkhashps`).
ALTER TABLE mining_figures ADD COLUMN height bigint CHECK (height >= 0);
ALTER TABLE mining_figures ADD COLUMN network_hashps double precision CHECK (network_hashps >= 0);
ALTER TABLE mining_figures ADD COLUMN tip_time bigint;
