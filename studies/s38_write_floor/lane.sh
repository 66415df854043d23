#!/bin/bash
# $1 = main|new, $2 = days
cd /work/wt38-corekeys
unset PYTHONDONTWRITEBYTECODE
{ date -u; uptime; } > /tmp/s38-corekeys/lane_$1_$2.time
uv run --locked --no-sync python /tmp/s38-corekeys/study.py --db /tmp/s38-corekeys/hotel$2.sqlite --repo /tmp/s38-corekeys/$1 --keep /tmp/s38-corekeys/w_$1_$2 > /tmp/s38-corekeys/study_$1_$2.log 2>&1
{ date -u; uptime; } >> /tmp/s38-corekeys/lane_$1_$2.time
