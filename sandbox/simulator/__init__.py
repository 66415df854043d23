"""The hotel simulator: demand (pure, seeded), the day's play through the domain services,
the POS ledger and its dropped postings. See docs/sandbox.md, "Simulator"."""
