import duckdb, polars as pl
def run(n, how):
    c = duckdb.connect(":memory:")
    c.execute("CREATE TABLE core (a BIGINT, b VARCHAR)")
    c.execute("BEGIN")
    c.register("fr", pl.DataFrame({"a": pl.Series(range(n), dtype=pl.Int64)}).with_columns(b=pl.lit("x")))
    c.execute("CREATE OR REPLACE TEMP TABLE stg AS SELECT * FROM fr")
    if how == "ctas0":
        c.execute("CREATE OR REPLACE TEMP TABLE new AS SELECT * FROM core LIMIT 0")
    elif how == "ddl":
        c.execute("CREATE OR REPLACE TEMP TABLE new (a BIGINT, b VARCHAR)")
    elif how == "ctaswhere":
        c.execute("CREATE OR REPLACE TEMP TABLE new AS SELECT * FROM core WHERE false")
    c.execute("INSERT INTO new BY NAME SELECT * FROM stg")
    r2 = c.execute("SELECT count(*), max(a) FROM new").fetchall()[0]
    r3 = c.execute("SELECT count(*) FROM (SELECT * FROM stg EXCEPT SELECT * FROM new)").fetchall()[0]
    c.execute("COMMIT")
    print(n, how, "new", r2, "stg except new", r3, "WRONG" if r2[0] != n or r3[0] else "")
for how in ("ctas0", "ddl", "ctaswhere"):
    run(300000, how)
