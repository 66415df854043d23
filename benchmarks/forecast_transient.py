"""Issue 17 experiment: shrink the level forecast toward the *transient* books.

The simulator (sandbox/simulator/demand_book.py) draws each arrival date's groups first and
then fills the night with individual bookings up to its target, so the transient (non-group)
rooms on the books at h days out are a thinning of (final - group rooms): they carry the
night's own noise, which `last_year_season` (the level) cannot see. As of S, for night
D = S + h:

    L      = last_year_season(S, D)                        (the level, as the marts make it)
    p_h    = sum transient_otb(D'-h, D') / sum transient_final(D')   over training nights
    G_hat  = group_otb(S, D) + mean(group_final(D') - group_otb(D'-h, D'))  (training nights)
    L_t    = L - G_hat                                      (the level of the transient rooms)
    T_hat  = transient_otb(S, D) / p_h                       (what the transient books say)
    forecast = clip(L + w * (T_hat - L_t), 0, cap)

Training nights of S: the nights D' with S - window <= D' < S (realized before S; their own
L, books and finals read from snapshots <= D' < S), same horizon h. w is one of

- fixed (0.1, 0.2, 0.3);
- `bin`: sigma2 / (sigma2 + L_t (1 - p_h) / p_h), sigma2 = mean (final - L)^2 over the training
  nights (the prior variance of the level's error) and L_t (1-p)/p the variance of T_hat were
  the transient books a binomial thinning of L_t rooms;
- `eb`: the same with the variance of T_hat measured, not assumed binomial: tau2 = mean
  (transient_otb / p_h - transient_final)^2 over the training nights (empirical Bayes);
- `ebr`: as `eb`, both variances from the median absolute deviation (x 1.4826, squared);
- `eb2`: per night, sigma2 = mean ((final - L) / L)^2 x L^2 and the binomial variance of
  `bin` times the overdispersion mean (T_hat - final_t)^2 / mean final_t (1 - p) / p measured
  on the training nights;
- `reg`: the least-squares slope through the origin of (final - L) on (T_hat - L_t) over the
  training nights, clipped to [0, 1];
- `l1`: the w of 0, 0.025, ..., 1 with the least sum |final - L - w (T_hat - L_t)| over the
  training nights.

`all_*`: the same with every room on the books (no split), p_h = sum rooms_otb / sum final,
L in place of L_t (the "share of the books' deviation" tried before last_year_season).
Nothing is fitted on a scored night: every training night of S is before S.
"""

from __future__ import annotations

import numpy as np
import polars as pl

NAMES = ("tr_w0.1", "tr_w0.2", "tr_w0.3", "tr_bin", "tr_eb", "tr_ebr", "tr_eb2",
         "tr_reg", "tr_l1", "tr2_reg",
         "firm_reg",
         "all_w0.1", "all_bin", "all_eb", "all_reg", "all_l1")
GRID = np.round(np.arange(0, 1.0001, 0.025), 3)


def with_split(every: pl.DataFrame, split: pl.DataFrame) -> pl.DataFrame:
    """every (method_forecasts + realized) with, as of S, otb_g (group rooms), otb_f (firm
    transient: NREF / CORP rate plans, walk-ins), otb_s (the other transient rooms),
    otb_t = otb_f + otb_s, and the night's final_g, final_f, final_s, final_t
    (split: benchmarks.otb_split.split_otb(..., classes_firm()))."""
    short = {"rooms_otb_group": "g", "rooms_otb_firm": "f", "rooms_otb_soft": "s"}
    books = split.select("property_id", pl.col("snapshot_date").alias("as_of_date"), "stay_date",
                         **{f"otb_{v}": k for k, v in short.items()}).with_columns(
        otb_t=pl.col("otb_f") + pl.col("otb_s"))
    finals = split.filter(pl.col("snapshot_date") == pl.col("stay_date")).select(
        "property_id", "stay_date", **{f"final_{v}": k for k, v in short.items()}).with_columns(
        final_t=pl.col("final_f") + pl.col("final_s"))
    out = every.join(books, on=["property_id", "as_of_date", "stay_date"], how="left").join(
        finals, on=["property_id", "stay_date"], how="left")
    assert out.filter(pl.col("otb_t") + pl.col("otb_g") != pl.col("rooms_otb")).is_empty()
    assert out.filter(pl.col("final_t") + pl.col("final_g") != pl.col("rooms_actual")).is_empty()
    return out


def _nn_lstsq(x: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Least squares without intercept, coefficients >= 0 (two columns: drop a negative one)."""
    coef: np.ndarray = np.linalg.lstsq(x, y, rcond=None)[0]
    if (coef >= 0).all():
        return coef
    best, best_loss = np.zeros(x.shape[1]), float(y @ y)
    for j in range(x.shape[1]):
        c = max(0.0, float((x[:, j] @ y) / (x[:, j] @ x[:, j])))
        loss = float(((y - c * x[:, j]) ** 2).sum())
        if loss < best_loss:
            best, best_loss = np.eye(x.shape[1])[j] * c, loss
    return best


def _l1_w(resid: np.ndarray, dev: np.ndarray) -> float:
    losses = np.abs(resid[None, :] - GRID[:, None] * dev[None, :]).sum(axis=1)
    return float(GRID[int(np.argmin(losses))])


def variants(rows: pl.DataFrame, scored: pl.DataFrame, window: int = 182,
             weekday_share: bool = False) -> dict[str, list[float]]:
    """rows: every night of horizon h with its level (drop_nulls last_year_season);
    scored: the nights scored. One list of forecasts per variant, in scored's order."""
    r = rows.sort("stay_date")
    stay = np.array(r["stay_date"].to_list(), dtype="datetime64[D]")
    wd = np.array(r["stay_date"].dt.weekday().to_list())
    lvl_all = r["last_year_season"].to_numpy().astype(float)
    fin = r["rooms_actual"].to_numpy().astype(float)
    ft = r["final_t"].to_numpy().astype(float)
    fg = r["final_g"].to_numpy().astype(float)
    ot = r["otb_t"].to_numpy().astype(float)
    og = r["otb_g"].to_numpy().astype(float)
    of = r["otb_f"].to_numpy().astype(float)
    os_ = r["otb_s"].to_numpy().astype(float)
    oa = r["rooms_otb"].to_numpy().astype(float)
    out: dict[str, list[float]] = {}

    def put(name: str, value: float, cap: float) -> None:
        out.setdefault(name, []).append(float(min(max(value, 0.0), cap)))

    for row in scored.iter_rows(named=True):
        s = np.datetime64(row["as_of_date"], "D")
        d = row["stay_date"]
        m = (stay < s) & (stay >= s - np.timedelta64(window, "D"))
        mw = m & (wd == d.isoweekday()) if weekday_share else m
        lvl, cap = float(row["last_year_season"]), float(row["cap"])
        if m.sum() < 28:  # too few training nights (h = 90 early on): the level
            for name in NAMES:
                put(name, lvl, cap)
            for k in ("w_bin", "w_reg", "w_l1", "p_t", "dev_t", "dev_a"):
                out.setdefault(k, []).append(np.nan)
            continue
        # transient
        p_t = ot[mw].sum() / ft[mw].sum()
        g_pick = float(np.mean(fg[m] - og[m]))
        g_hat = row["otb_g"] + g_pick
        dev = row["otb_t"] / p_t - (lvl - g_hat)
        dev_tr = ot[m] / p_t - (lvl_all[m] - (og[m] + g_pick))
        resid = fin[m] - lvl_all[m]
        sigma2 = float(np.mean(resid ** 2))
        lt = max(lvl - g_hat, 1.0)
        w_bin = sigma2 / (sigma2 + lt * (1 - p_t) / p_t)
        tau2 = float(np.mean((ot[m] / p_t - ft[m]) ** 2))
        put("tr_eb", lvl + sigma2 / (sigma2 + tau2) * dev, cap)
        # robust: both variances from the median absolute deviation (an event night or two
        # in the training nights does not set the weight)
        s_r = (1.4826 * float(np.median(np.abs(resid - np.median(resid))))) ** 2
        thin_tr = ot[m] / p_t - ft[m]
        t_r = (1.4826 * float(np.median(np.abs(thin_tr - np.median(thin_tr))))) ** 2
        put("tr_ebr", lvl + s_r / (s_r + t_r) * dev, cap)
        # per night: relative level error x the night's level, binomial variance x the
        # overdispersion measured on the training nights
        rel2 = float(np.mean((resid / lvl_all[m]) ** 2))
        phi = float(np.mean(thin_tr ** 2) / np.mean(ft[m] * (1 - p_t) / p_t))
        s_n, t_n = rel2 * lvl * lvl, phi * lt * (1 - p_t) / p_t
        put("tr_eb2", lvl + s_n / (s_n + t_n) * dev, cap)
        w_reg = float(np.clip((dev_tr @ resid) / (dev_tr @ dev_tr), 0, 1))
        w_l1 = _l1_w(resid, dev_tr)
        for w in (0.1, 0.2, 0.3):
            put(f"tr_w{w}", lvl + w * dev, cap)
        out.setdefault("dev_t", []).append(float(dev))
        put("tr_bin", lvl + w_bin * dev, cap)
        put("tr_reg", lvl + w_reg * dev, cap)
        put("tr_l1", lvl + w_l1 * dev, cap)
        out.setdefault("w_bin", []).append(w_bin)
        out.setdefault("w_reg", []).append(w_reg)
        out.setdefault("w_l1", []).append(w_l1)
        out.setdefault("p_t", []).append(p_t)
        # firm / soft transient books apart: resid ~ b_f d_f + b_s d_s, d_c = otb_c - a_c L_t
        lt_tr = lvl_all[m] - (og[m] + g_pick)
        a_f = of[mw].sum() / ft[mw].sum()
        a_s = os_[mw].sum() / ft[mw].sum()
        x = np.column_stack([of[m] - a_f * lt_tr, os_[m] - a_s * lt_tr])
        b = _nn_lstsq(x, resid)
        put("tr2_reg", lvl + b @ np.array([row["otb_f"] - a_f * (lvl - g_hat),
                                          row["otb_s"] - a_s * (lvl - g_hat)]), cap)
        dev_f_tr = of[m] / a_f - lt_tr
        w_f = float(np.clip((dev_f_tr @ resid) / (dev_f_tr @ dev_f_tr), 0, 1))
        put("firm_reg", lvl + w_f * (row["otb_f"] / a_f - (lvl - g_hat)), cap)
        # every room on the books, no split
        p_a = oa[mw].sum() / fin[mw].sum()
        dev_a = row["rooms_otb"] / p_a - lvl
        out.setdefault("dev_a", []).append(float(dev_a))
        dev_a_tr = oa[m] / p_a - lvl_all[m]
        wa_bin = sigma2 / (sigma2 + lvl * (1 - p_a) / p_a)
        wa_reg = float(np.clip((dev_a_tr @ resid) / (dev_a_tr @ dev_a_tr), 0, 1))
        tau2_a = float(np.mean((oa[m] / p_a - fin[m]) ** 2))
        put("all_eb", lvl + sigma2 / (sigma2 + tau2_a) * dev_a, cap)
        put("all_w0.1", lvl + 0.1 * dev_a, cap)
        put("all_bin", lvl + wa_bin * dev_a, cap)
        put("all_reg", lvl + wa_reg * dev_a, cap)
        put("all_l1", lvl + _l1_w(resid, dev_a_tr) * dev_a, cap)
    return out



def oracle(scored: pl.DataFrame, dev: list[float]) -> tuple[float, float]:
    """NOT a method (it is fitted on the scored nights): the fixed w of GRID with the lowest
    WAPE of lvl + w dev on the scored nights, and that WAPE: the ceiling of any fixed shrinkage."""
    lvl = scored["last_year_season"].to_numpy().astype(float)
    cap = scored["cap"].to_numpy().astype(float)
    act = scored["rooms_actual"].to_numpy().astype(float)
    d = np.nan_to_num(np.array(dev, dtype=float))
    best = (0.0, float("inf"))
    for w in GRID:
        wape = float(np.abs(np.clip(lvl + w * d, 0, cap) - act).sum() / act.sum() * 100)
        if wape < best[1]:
            best = (float(w), round(wape, 2))
    return best
