#!/bin/bash
# $1 = main|new, $2 = days
cd /work/wt39-rowgroup
unset PYTHONDONTWRITEBYTECODE
{ date -u; uptime; } > /tmp/s39-rowgroup/lane_$1_$2.time
/usr/bin/time -v uv run --locked --no-sync python /tmp/s39-rowgroup/study.py --db /tmp/s39-rowgroup/hotel$2.sqlite --repo /tmp/s39-rowgroup/$1 --keep /tmp/s39-rowgroup/w_$1_$2 > /tmp/s39-rowgroup/study_$1_$2.log 2>&1
{ date -u; uptime; } >> /tmp/s39-rowgroup/lane_$1_$2.time
