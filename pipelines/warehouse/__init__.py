"""The DuckDB warehouse: migrations from sql/, loaders (merge, SCD2 history), sync state."""
