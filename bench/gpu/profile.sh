#!/bin/sh
# Profile bench/gpu/kernels.cu on this machine's GPU 0 and write a data set
# in OUTDIR: deviceInfo.csv (one row), manifest.csv (the plan with the
# median of 5 timed runs, CUDA events, no profiler attached) and
# ncu-raw.csv (Nsight Compute's raw CSV page, one row per launch, clocks
# not locked). Needs nvcc and ncu on the PATH; nothing of the project's
# build or tests needs this script.
#   sh bench/gpu/profile.sh OUTDIR [ARCH]       (ARCH default: native)
set -eu
out=$1; arch=${2:-native}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out"
bin=$(mktemp -d)/kernels
nvcc -O3 -arch="$arch" -o "$bin" "$here/kernels.cu"
"$bin" --device > "$out/deviceInfo.csv"
"$bin" --time "$out/manifest.csv"
metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,sm__cycles_elapsed.avg,\
smsp__cycles_active.avg,smsp__inst_executed.sum,smsp__warps_launched.sum,\
sm__warps_active.avg.pct_of_peak_sustained_active,\
smsp__inst_executed_op_shared_ld.sum,smsp__inst_executed_op_shared_st.sum,\
smsp__inst_executed_op_global_ld.sum,smsp__inst_executed_op_global_st.sum,\
l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_st.sum,\
l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,\
l1tex__t_sector_pipe_lsu_mem_global_op_ld_hit_rate.pct,lts__t_sector_hit_rate.pct,\
dram__sectors_read.sum,dram__sectors_write.sum,\
l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,\
launch__registers_per_thread,launch__shared_mem_per_block_static,launch__shared_mem_per_block_dynamic,\
launch__grid_size,launch__block_size,launch__waves_per_multiprocessor,launch__sm_count,\
launch__occupancy_limit_blocks,launch__occupancy_limit_registers,launch__occupancy_limit_shared_mem,\
launch__occupancy_limit_warps
ncu --csv --page raw --clock-control none --metrics "$metrics" "$bin" --once > "$out/ncu-all.txt"
grep '^"' "$out/ncu-all.txt" > "$out/ncu-raw.csv"
wc -l "$out/manifest.csv" "$out/ncu-raw.csv"
