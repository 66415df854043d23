#!/bin/bash
# $1 = tree (main|new|new2048), $2 = days, $3 = number of days to run
cd /work/wt39-rowgroup
unset PYTHONDONTWRITEBYTECODE
/usr/bin/time -v uv run --locked --no-sync python /tmp/s39-rowgroup/days.py --repo /tmp/s39-rowgroup/$1 --from /tmp/s39-rowgroup/w_$1_$2 --keep /tmp/s39-rowgroup/d_$1_$2 --days $3 > /tmp/s39-rowgroup/days_$1_$2.log 2>&1
