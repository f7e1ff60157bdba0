#!/bin/sh
# pn-gpu from the command line: predict from both profile layouts, fit a
# calibration and predict with it, a launch with no profile, eval's splits
# and the README's table reproduced, and bad input.
. "${srcdir:-tests}/lib.sh"
H="$srcdir/../share/gpu-data/hopper"
DEV="$H/deviceInfo.csv"

expect 0 "$BIN/pn-gpu" --help
has "$TMP/out" "Usage: pn-gpu predict"
has "$TMP/out" "Exit status"
expect 0 "$BIN/pn-gpu" --version
has "$TMP/out" "pn-gpu (pn-toolkit)"
expect 2 "$BIN/pn-gpu" --no-such-option
has "$TMP/err" "pn-gpu: unrecognized option '--no-such-option'"
lacks "$TMP/err" "/pn-gpu:"
man_documents_options pn-gpu

# --- predict: Nsight Compute raw CSV (the H100 profiles) ----------------------
expect 0 "$BIN/pn-gpu" predict -D "$DEV" "$H/profiles/vectorAdd-H100.csv"
has "$TMP/out" "gpu,kernel,input_size,block_x,block_y,predicted_s,low_s,high_s,measured_s"
rows=$(grep -c '^NVIDIA H100 80GB HBM3,vectorAdd,' "$TMP/out")
[ "$rows" -eq 69 ] && ok || bad "expected 69 vectorAdd rows, got $rows"
# every prediction is positive and inside its interval; measured is known
awk -F, 'NR > 1 && !($6 > 0 && $7 <= $6 && $6 <= $8 && $9 > 0) { bad = 1 } END { exit bad }' "$TMP/out" \
    && ok || bad "a prediction outside its interval or without its measurement"
# spec only: the model's DRAM bound for the largest vectorAdd (3 x 2^28
# floats = 3.2 GB at 3.35 TB/s: about 0.96 ms) is within 20% of the run
awk -F, '$3 == 268435456 && $4 == 256 { r = $6 / $9; exit !(r > 0.8 && r < 1.2) }' "$TMP/out" \
    && ok || bad "spec-only vectorAdd 2^28 is not within 20% of its measurement"
expect 0 "$BIN/pn-gpu" predict -D "$DEV" --explain --format json "$H/profiles/subSeqMax-H200.csv"
has "$TMP/out" '"gpu": "NVIDIA H200"'
has "$TMP/out" '"bound": "net"'
has "$TMP/out" '"limited_by": "warps"'

# --- predict: nvprof CSV -------------------------------------------------------
cat > "$TMP/dev.csv" <<'EOF'
compute_version,gpu_id,gpu_name,l1_cache_used,max_clock_rate,num_of_cores,L2,bus,memory_clock,bandwith,GM,num_sm,num_cores_sm,theoretical_flops
5.2,7,GTX-970,0,1076,1664,1.75,256,3505,224.32,4,13,128,3580.928
EOF
{
    printf '"","gpu_name","AppName","Input.Size","Grid.X","Grid.Y","Grid.Z","Block.X","Block.Y","Block.Z","Registers.Per.Thread","Static.SMem","Dynamic.SMem","Duration","warps_launched","inst_executed","shared_load","shared_store","global_load","global_store","Global.Load.Transactions","Global.Store.Transactions","Device.Memory.Read.Transactions","Device.Memory.Write.Transactions","L2.Read.Transactions","L2.Write.Transactions"\n'
    printf '"1","GTX-970","vectorAdd",1048576,4096,1,1,256,1,1,8,0,0,0.000125,32768,688128,0,0,65536,32768,262144,131072,262144,131072,262144,131072\n'
    printf '"2","GTX-970","vectorAdd",2097152,8192,1,1,256,1,1,8,0,0,0.000243,65536,1376256,0,0,131072,65536,524288,262144,524288,262144,524288,262144\n'
    printf '"3","GTX-970","vectorAdd",4194304,16384,1,1,256,1,1,8,0,0,NA,131072,NA,0,0,262144,131072,1048576,524288,1048576,524288,1048576,524288\n'
} > "$TMP/va.csv"
expect 1 "$BIN/pn-gpu" predict -D "$TMP/dev.csv" "$TMP/va.csv"
has "$TMP/err" "the profile has no instructions executed"
has "$TMP/err" "va.csv:4"
# the launch that cannot be predicted gets a row with no prediction, the
# others are predicted all the same, and the exit status says so (1)
has "$TMP/out" "GTX-970,vectorAdd,4194304,256,1,,,,"
has "$TMP/out" "GTX-970,vectorAdd,2097152,256,1,0"
has "$TMP/err" "1 of 3 launches could not be predicted"
expect 1 "$BIN/pn-gpu" predict -D "$TMP/dev.csv" -o "$TMP/va.out" --explain -f json "$TMP/va.csv"
has "$TMP/va.out" '"input_size": 4194304, "block_x": 256, "block_y": 1, "predicted_s": null, "low_s": null, "high_s": null'
has "$TMP/va.out" '"mlp": null, "decides": null'
has "$TMP/va.out" '"input_size": 2097152,'
# a file with no column for counts a prediction needs: refused at its
# header line, every missing column named, never taken as 0
# (kept: inst_executed and global_load; cut: warps_launched,
# shared_load, shared_store, global_store)
cut -d, -f1-14,16,19 "$TMP/va.csv" > "$TMP/va-cols.csv"
expect 1 "$BIN/pn-gpu" predict -D "$TMP/dev.csv" "$TMP/va-cols.csv"
has "$TMP/err" "va-cols.csv:1: no column for warps launched (warps_launched"
has "$TMP/err" "shared loads (shared_load"
has "$TMP/err" "shared stores (shared_store"
has "$TMP/err" "global stores (gst_request"
head -3 "$TMP/va.csv" > "$TMP/va2.csv"
expect 0 "$BIN/pn-gpu" predict -D "$TMP/dev.csv" "$TMP/va2.csv"
has "$TMP/out" "GTX-970,vectorAdd,1048576,256,1,"
# a bandwidth of 0 is refused at its cell
sed '2s/,224.32,/,0,/' "$TMP/dev.csv" > "$TMP/dev0.csv"
expect 1 "$BIN/pn-gpu" predict -D "$TMP/dev0.csv" "$TMP/va2.csv"
has "$TMP/err" "dev0.csv:2:41: column 'bandwith': '0' is not a positive number"
# a column read twice in the header: refused, naming it and where
sed '1s/$/,bandwith/; 2s/$/,1/' "$TMP/dev.csv" > "$TMP/dev2.csv"
expect 1 "$BIN/pn-gpu" predict -D "$TMP/dev2.csv" "$TMP/va2.csv"
has "$TMP/err" "dev2.csv:1:145: the column 'bandwith' is in the header twice (fields 10 and 15)"
# a duration of 0 is no measurement: measured_s is empty, as fit and eval
# take it
sed '2s/,0.000125,/,0,/' "$TMP/va2.csv" > "$TMP/zero.csv"
expect 0 "$BIN/pn-gpu" predict -D "$TMP/dev.csv" "$TMP/zero.csv"
awk -F, 'NR == 2 { exit !($9 == "" && $6 > 0) }' "$TMP/out" && ok || bad "a duration of 0 printed as measured: $(sed -n 2p "$TMP/out")"
expect 0 "$BIN/pn-gpu" predict -D "$TMP/dev.csv" -f json "$TMP/zero.csv"
has "$TMP/out" '"measured_s": null}'
# names with commas and quotes (templated kernels) are quoted as RFC 4180
# says, in predict's and eval's CSV
sed '2s/"vectorAdd"/"void scale<float, 4>(float *, int)"/; 3s/"vectorAdd"/"say ""hi"""/' "$TMP/va2.csv" > "$TMP/q.csv"
expect 0 "$BIN/pn-gpu" predict -D "$TMP/dev.csv" "$TMP/q.csv"
has "$TMP/out" 'GTX-970,"scale<float, 4>",1048576,256,1,'
has "$TMP/out" 'GTX-970,"say ""hi""",2097152,'
mkdir -p "$TMP/q/profiles"
cp "$TMP/dev.csv" "$TMP/q/deviceInfo.csv"
cp "$TMP/q.csv" "$TMP/q/profiles/"
expect 0 "$BIN/pn-gpu" eval "$TMP/q"
has "$TMP/out" 'kernel,"kernel:say ""hi""",1,'
# no control-flow count: one load in flight (mlp, the 24th column)
expect 0 "$BIN/pn-gpu" predict -D "$TMP/dev.csv" --explain "$TMP/va2.csv"
has "$TMP/out" ",idle,strided_s,mlp"
awk -F, 'NR == 2 { exit !($24 == 1) }' "$TMP/out" && ok || bad "mlp without a control-flow count is not 1"
# with Executed.Control.Flow.Instructions: 4 global loads per control-flow
# instruction, 4 loads in flight and a net no slower
awk -F, 'NR == 2 { print $6 }' "$TMP/out" > "$TMP/net1"
sed '1s/$/,"Executed.Control.Flow.Instructions"/; 2s/$/,16384/; 3s/$/,32768/' "$TMP/va2.csv" > "$TMP/va3.csv"
expect 0 "$BIN/pn-gpu" predict -D "$TMP/dev.csv" --explain "$TMP/va3.csv"
awk -F, -v n1="$(cat "$TMP/net1")" 'NR == 2 { exit !($24 == 4 && $6 <= n1) }' "$TMP/out" \
    && ok || bad "4 loads per control-flow instruction: $(sed -n 2p "$TMP/out")"

# --- fit, then predict with the calibration -------------------------------------
expect 0 "$BIN/pn-gpu" fit -D "$DEV" -o "$TMP/cal.json" "$H/profiles/vectorAdd-H100.csv" "$H/profiles/matMul_gpu-H100.csv"
has "$TMP/err" "NVIDIA H100 80GB HBM3: 117 launches, training error"
has "$TMP/cal.json" '"format": "pn-gpu calibration"'
has "$TMP/cal.json" '"strided_scale": '
[ "$(tail -c 1 "$TMP/cal.json" | od -An -c | tr -d ' ')" = '\n' ] && ok || bad "the calibration does not end with a line break"
expect 0 "$BIN/pn-gpu" predict -C "$TMP/cal.json" -D "$DEV" "$H/profiles/matMul_gpu-H100.csv"
# calibrated on these rows: the mean error is the training error's size
awk -F, 'NR > 1 { e += ($6 > $9 ? $6 - $9 : $9 - $6) / $9; n++ } END { exit !(n == 48 && e / n < 0.5) }' "$TMP/out" \
    && ok || bad "calibrated matMul_gpu predictions are off by more than 50% on average"
# a GPU the calibration does not name is predicted from its specification,
# with a warning (once a GPU)
expect 0 "$BIN/pn-gpu" predict -C "$TMP/cal.json" -D "$DEV" "$H/profiles/vectorAdd-H200.csv"
has "$TMP/out" "NVIDIA H200,vectorAdd,"
has "$TMP/err" "cal.json: warning: no calibration of the GPU 'NVIDIA H200': predicted from its specification alone"
[ "$(wc -l < "$TMP/err")" -eq 1 ] && ok || bad "the warning is not given once"
expect 0 "$BIN/pn-gpu" predict -C "$TMP/cal.json" -D "$DEV" "$H/profiles/vectorAdd-H100.csv"
lacks "$TMP/err" "warning"
printf '{"format": "pn-gpu calibration", "version": 1, "gpus": []}\n' > "$TMP/empty.json"
expect 0 "$BIN/pn-gpu" predict -C "$TMP/empty.json" -D "$DEV" "$H/profiles/vectorAdd-H100.csv"
has "$TMP/err" "warning: no calibration of the GPU 'NVIDIA H100 80GB HBM3'"
# a GPU twice in a calibration is refused
sed 's/"gpus": \[/"gpus": [{"gpu": "H100", "overhead_s": 1e-6, "issue_scale": 1, "dram_scale": 1, "l2_scale": 1, "lsu_scale": 1, "log_lo": 0, "log_hi": 0},/' "$TMP/cal.json" > "$TMP/twice.json"
expect 1 "$BIN/pn-gpu" predict -C "$TMP/twice.json" -D "$DEV" "$H/profiles/vectorAdd-H100.csv"
has "$TMP/err" 'twice.json: GPU 2 of "gpus" ("NVIDIA H100 80GB HBM3") is GPU 1 ("H100") again: which calibration applies is not known [PN_EVALUE]'
# bad calibrations
printf '{"format": "pn-gpu calibration", "version": 1, "gpus": [{"gpu": "x", "overhead_s": -1,' > "$TMP/bad.json"
expect 1 "$BIN/pn-gpu" predict -C "$TMP/bad.json" -D "$DEV" "$H/profiles/vectorAdd-H100.csv"
has "$TMP/err" "bad.json:1:"
printf '{"format": "pn-gpu calibration", "version": 1, "gpus": [{"gpu": "x", "overhead_s": -1, "issue_scale": 1, "dram_scale": 1, "l2_scale": 1, "log_lo": 0, "log_hi": 0}]}\n' > "$TMP/bad.json"
expect 1 "$BIN/pn-gpu" predict -C "$TMP/bad.json" -D "$DEV" "$H/profiles/vectorAdd-H100.csv"
has "$TMP/err" 'bad.json: GPU 1 of "gpus" ("x"): "overhead_s": -1 is negative (expected >= 0) [PN_EVALUE]'
# each field is named with what is wrong with it
cal() { printf '{"format": "pn-gpu calibration", "version": %s, "gpus": [{"gpu": "NVIDIA H100 80GB HBM3", "overhead_s": 1e-6, "issue_scale": %s, "dram_scale": 1, "l2_scale": 1, "lsu_scale": 1, "log_lo": %s, "log_hi": %s}]}\n' "$@" > "$TMP/bad.json"; }
for v in '"abc"' null; do
    cal 1 "$v" -0.5 0.5
    expect 1 "$BIN/pn-gpu" predict -C "$TMP/bad.json" -D "$DEV" "$H/profiles/vectorAdd-H100.csv"
    has "$TMP/err" '"issue_scale": expected a number, found '
done
# an interval that leaves out the prediction is refused
cal 1 1 -0.5 -1
expect 1 "$BIN/pn-gpu" predict -C "$TMP/bad.json" -D "$DEV" "$H/profiles/vectorAdd-H100.csv"
has "$TMP/err" '"log_hi": -1 is negative (expected >= 0) [PN_EVALUE]'
cal 1 1 5 6
expect 1 "$BIN/pn-gpu" predict -C "$TMP/bad.json" -D "$DEV" "$H/profiles/vectorAdd-H100.csv"
has "$TMP/err" '"log_lo": 5 is positive (expected <= 0'
# version 1.0 is 1; 2 is not read
cal 1.0 1 -0.5 0.5
expect 0 "$BIN/pn-gpu" predict -C "$TMP/bad.json" -D "$DEV" "$H/profiles/vectorAdd-H100.csv"
cal 2 1 -0.5 0.5
expect 1 "$BIN/pn-gpu" predict -C "$TMP/bad.json" -D "$DEV" "$H/profiles/vectorAdd-H100.csv"
has "$TMP/err" "bad.json: version 2: only version 1 is read [PN_EUNSUPPORTED]"
# a calibration that cannot be opened or is a folder
expect 1 "$BIN/pn-gpu" predict -C "$TMP/no-such.json" -D "$DEV" "$H/profiles/vectorAdd-H100.csv"
has "$TMP/err" "no-such.json: cannot open: No such file or directory [PN_EIO]"
lacks "$TMP/err" ":-1:"
expect 1 "$BIN/pn-gpu" predict -C "$TMP" -D "$DEV" "$H/profiles/vectorAdd-H100.csv"
has "$TMP/err" ": cannot read: Is a directory [PN_EIO]"
# a calibration without strided_scale (written before it existed) is read;
# one with a negative strided_scale is refused
printf '{"format": "pn-gpu calibration", "version": 1, "gpus": [{"gpu": "NVIDIA H100 80GB HBM3", "overhead_s": 1e-6, "issue_scale": 1, "dram_scale": 1, "l2_scale": 1, "lsu_scale": 1, "log_lo": 0, "log_hi": 0}]}\n' > "$TMP/old.json"
expect 0 "$BIN/pn-gpu" predict -C "$TMP/old.json" -D "$DEV" "$H/profiles/vectorAdd-H100.csv"
sed 's/"lsu_scale": 1,/"lsu_scale": 1, "strided_scale": -2,/' "$TMP/old.json" > "$TMP/bad.json"
expect 1 "$BIN/pn-gpu" predict -C "$TMP/bad.json" -D "$DEV" "$H/profiles/vectorAdd-H100.csv"
has "$TMP/err" '"strided_scale": -2 is negative (expected >= 0) [PN_EVALUE]'
printf '{"format": "something else"}\n' > "$TMP/bad.json"
expect 1 "$BIN/pn-gpu" predict -C "$TMP/bad.json" -D "$DEV" "$H/profiles/vectorAdd-H100.csv"
has "$TMP/err" "not a pn-gpu calibration"
# six launches for six parameters: the fit would pass through them all
# (an interval of 0); refused, and no calibration written
head -8 "$H/profiles/vectorAdd-H100.csv" > "$TMP/six.csv"
expect 1 "$BIN/pn-gpu" fit -D "$DEV" -o "$TMP/six.json" "$TMP/six.csv"
has "$TMP/err" "NVIDIA H100 80GB HBM3: 6 launches with a measured time: fitting the 6 parameters needs at least 7 [PN_EINVAL]"
[ ! -e "$TMP/six.json" ] && ok || bad "fit wrote a calibration from 6 launches"
head -9 "$H/profiles/vectorAdd-H100.csv" > "$TMP/seven.csv"
expect 0 "$BIN/pn-gpu" fit -D "$DEV" -o "$TMP/seven.json" "$TMP/seven.csv"
expect 2 "$BIN/pn-gpu" fit -D "$DEV" "$H/profiles/vectorAdd-H100.csv"
has "$TMP/err" "fit needs"

# --- a launch with no profile ------------------------------------------------------
expect 0 "$BIN/pn-gpu" predict -D "$DEV" --gpu "NVIDIA H100 80GB HBM3" --grid 1320 --block 256 --arith 100 --explain
has "$TMP/out" "NVIDIA H100 80GB HBM3,launch,,256,1,"
has "$TMP/out" ",net,"
# twice the blocks, twice the waves: about twice the time (exact but for
# the overhead)
t1=$(awk -F, 'NR == 2 { print $6 - $11 }' "$TMP/out")
expect 0 "$BIN/pn-gpu" predict -D "$DEV" --gpu "NVIDIA H100 80GB HBM3" --grid 2640 --block 256 --arith 100 --explain
t2=$(awk -F, 'NR == 2 { print $6 - $11 }' "$TMP/out")
awk -v a="$t1" -v b="$t2" 'BEGIN { r = b / a; exit !(r > 1.98 && r < 2.02) }' && ok || bad "2x blocks gave $t1 -> $t2"
expect 2 "$BIN/pn-gpu" predict -D "$DEV" --grid 10 --block 32
has "$TMP/err" "--grid, --block and --gpu together"
expect 2 "$BIN/pn-gpu" predict -D "$DEV" --gpu x --grid 0 --block 32
has "$TMP/err" "--grid: '0': expected X[,Y[,Z]]"
expect 1 "$BIN/pn-gpu" predict -D "$DEV" --gpu "No Such GPU" --grid 10 --block 32
has "$TMP/err" "pn-gpu: --gpu: the GPU 'No Such GPU' is not in $DEV, which has 'NVIDIA H100 80GB HBM3' and 'NVIDIA H200'"
lacks "$TMP/err" ":0:"
# a profile with no GPU name (Nsight Compute's Device is an index)
sed '1s/"device__attribute_display_name"/"x_display_name"/' "$srcdir/data/gpu/ncu-h100.csv" > "$TMP/nodisp.csv"
expect 1 "$BIN/pn-gpu" predict -D "$DEV" "$TMP/nodisp.csv"
has "$TMP/err" "nodisp.csv:3: the profile names no GPU (only the device index 0): give its name with --gpu; $DEV has 'NVIDIA H100 80GB HBM3' and 'NVIDIA H200'"
expect 0 "$BIN/pn-gpu" predict -D "$DEV" --gpu "NVIDIA H100 80GB HBM3" "$TMP/nodisp.csv"
expect 1 "$BIN/pn-gpu" fit -D "$DEV" -o "$TMP/x.json" "$TMP/nodisp.csv"
has "$TMP/err" "nodisp.csv:3: the profile names no GPU (only the device index 0); $DEV has"
expect 1 "$BIN/pn-gpu" predict -D "$DEV" --gpu "NVIDIA H100 80GB HBM3" --grid 10 --block 64,32
has "$TMP/err" "CUDA allows at most 1024"
# CUDA's limits of each dimension, said with the range
expect 2 "$BIN/pn-gpu" predict -D "$DEV" --gpu "NVIDIA H100 80GB HBM3" --grid 10 --block 2048
has "$TMP/err" "--block: '2048': expected X[,Y[,Z]], whole numbers: X from 1 to 1024, Y from 1 to 1024, Z from 1 to 64"
expect 2 "$BIN/pn-gpu" predict -D "$DEV" --gpu "NVIDIA H100 80GB HBM3" --grid 2147483648 --block 32
has "$TMP/err" "--grid: '2147483648': expected X[,Y[,Z]], whole numbers: X from 1 to 2147483647, Y from 1 to 65535, Z from 1 to 65535"
expect 2 "$BIN/pn-gpu" predict -D "$DEV" --gpu "NVIDIA H100 80GB HBM3" --grid 1,65536 --block 32
has "$TMP/err" "Y from 1 to 65535"
expect 2 "$BIN/pn-gpu" predict -D "$DEV" --gpu "NVIDIA H100 80GB HBM3" --grid 1,1,65536 --block 32
expect 0 "$BIN/pn-gpu" predict -D "$DEV" --gpu "NVIDIA H100 80GB HBM3" --grid 2147483647,2,3 --block 32,2,2
# a global access moves at least one transaction
expect 2 "$BIN/pn-gpu" predict -D "$DEV" --gpu "NVIDIA H100 80GB HBM3" --grid 10 --block 32 --global 2 --transactions 0
has "$TMP/err" "--transactions 0 with --global 2"
expect 0 "$BIN/pn-gpu" predict -D "$DEV" --gpu "NVIDIA H100 80GB HBM3" --grid 10 --block 32 --arith 2 --transactions 0
expect 1 "$BIN/pn-gpu" predict -D "$DEV" --gpu "NVIDIA H100 80GB HBM3" --grid 10 --block 256 --smem 300000
has "$TMP/err" "does not fit on an SM"
expect 2 "$BIN/pn-gpu" predict
has "$TMP/err" "predict needs --device-info"
# options that do not apply to the command are refused, not ignored
expect 2 "$BIN/pn-gpu" eval -C "$TMP/cal.json" "$H"
has "$TMP/err" "--calibration does not apply to eval"
expect 2 "$BIN/pn-gpu" eval --explain "$H"
has "$TMP/err" "--explain does not apply to eval"
expect 2 "$BIN/pn-gpu" fit -C "$TMP/cal.json" -D "$DEV" -o "$TMP/x.json" "$H/profiles/vectorAdd-H100.csv"
has "$TMP/err" "--calibration does not apply to fit"
expect 2 "$BIN/pn-gpu" fit --grid 4 --block 32 --gpu H100 -D "$DEV" -o "$TMP/x.json" "$H/profiles/vectorAdd-H100.csv"
has "$TMP/err" "does not apply to fit"
expect 2 "$BIN/pn-gpu" fit -f json -D "$DEV" -o "$TMP/x.json" "$H/profiles/vectorAdd-H100.csv"
has "$TMP/err" "--format does not apply to fit"
expect 2 "$BIN/pn-gpu" predict --arith 5 -D "$DEV" "$H/profiles/vectorAdd-H100.csv"
has "$TMP/err" "--arith does not apply to predict without --grid and --block"
expect 2 "$BIN/pn-gpu" predict --smem 5 -D "$DEV" "$H/profiles/vectorAdd-H100.csv"
has "$TMP/err" "--smem does not apply to predict without --grid and --block"
[ ! -e "$TMP/x.json" ] && ok || bad "a refused fit wrote its output"
expect 2 "$BIN/pn-gpu" frobnicate
has "$TMP/err" "unknown command 'frobnicate'"

# --- Pascal from its specification, and --explain's report -----------------------
# the Tesla P100 (cc 6.0) row of the data set's deviceInfo.csv; no profile
# of it is needed: the limits come from the built-in table (32 blocks, 64
# warps, 65536 registers, 64 KB shared memory an SM, 2 schedulers)
cat > "$TMP/p100.csv" <<'EOF'
compute_version,gpu_id,gpu_name,l1_cache_used,max_clock_rate,num_of_cores,L2,bus,memory_clock,bandwith,GM,num_sm,num_cores_sm,theoretical_flops
6.0,9,Tesla-P100,0,1126,3584,4,4096,3004,549,12,56,64,7168
EOF
P100="$BIN/pn-gpu predict -D $TMP/p100.csv --gpu Tesla-P100 --explain"
# 20,000 bytes of shared memory a block: 3 blocks of the 64 KB (24 warps)
expect 0 $P100 -f text --grid 4096 --block 256 --arith 40 --global 4 --smem 20000
has "$TMP/out" "occupancy: 24 of 64 warps (38%), 3 blocks an SM, limited by shared memory"
has "$TMP/out" "what if: shared memory: with 16384 bytes a block (now 20000): 1 more block an SM, predicted"
has "$TMP/out" "what if: registers: allow 8 blocks an SM: not the limit"
has "$TMP/out" "guessed: the overhead and scales (no calibration of this GPU"
# 128 registers a thread: 2 blocks of 256 threads (65536 / 32768)
expect 0 $P100 -f text --grid 100000 --block 256 --arith 4 --global 8 --regs 128
has "$TMP/out" "bound: latency"
has "$TMP/out" "limited by registers"
has "$TMP/out" "what if: registers: with 80 a thread (now 128): 1 more block an SM, predicted"
# one launch of each bound, in text and in JSON
bound_is() {   # BOUND LAUNCH-OPTIONS...
    b=$1; shift
    expect 0 $P100 -f text "$@"
    has "$TMP/out" "  bound: $b"
    has "$TMP/out" "  occupancy: "
    has "$TMP/out" ", limited by "
    for w in blocks warps registers "shared memory"; do
        has "$TMP/out" "  what if: $w: "
    done
    expect 0 $P100 -f json "$@"
    has "$TMP/out" "\"decides\": \"$b\""
    has "$TMP/out" '"limited_by": "'
    has "$TMP/out" '"whatif": [{"limit": "blocks", "text": '
    for w in warps registers "shared memory"; do
        has "$TMP/out" "{\"limit\": \"$w\", \"text\": \"$w: "
    done
}
bound_is issue --grid 100000 --block 256 --arith 400
bound_is latency --grid 100000 --block 256 --arith 4 --global 8 --regs 128
bound_is DRAM --grid 100000 --block 256 --arith 4 --global 40 --transactions 8
bound_is L1/shared --grid 100000 --block 256 --shared 100
bound_is "launch overhead" --grid 1 --block 32 --arith 10
# 56 blocks of 1024 threads on 56 SMs: half a wave, all of it the tail
bound_is "tail wave" --grid 56 --block 1024 --arith 4000
has "$TMP/out" '"tail_share": 1.0000'
has "$TMP/out" "\"text\": \"warps: the SM's 64 warps are resident (full occupancy)\""
cat > "$TMP/l2cal.json" <<'EOF'
{"format": "pn-gpu calibration", "version": 1, "gpus": [{"gpu": "Tesla-P100", "overhead_s": 1e-6,
 "issue_scale": 1, "dram_scale": 0.1, "l2_scale": 10, "lsu_scale": 1, "log_lo": -0.1, "log_hi": 0.1}]}
EOF
bound_is L2 -C "$TMP/l2cal.json" --grid 100000 --block 256 --arith 4 --global 8
has "$TMP/out" '"guessed": []'
# CSV: the same in four more columns
expect 0 $P100 --grid 100000 --block 256 --arith 400
has "$TMP/out" ",decides,occupancy,tail_share,whatif"
has "$TMP/out" ",issue,1.0000,"
expect 2 "$BIN/pn-gpu" eval -f text "$H"
has "$TMP/err" "--format text applies to predict only"

# --- eval ----------------------------------------------------------------------------
mkdir -p "$TMP/d/profiles"
cp "$DEV" "$TMP/d/"
cp "$H/profiles/vectorAdd-H100.csv" "$H/profiles/vectorAdd-H200.csv" "$H/profiles/subSeqMax-H100.csv" "$H/profiles/subSeqMax-H200.csv" "$TMP/d/profiles/"
expect 0 "$BIN/pn-gpu" eval "$TMP/d"
has "$TMP/out" "split,group,n,model,inst_per_sm,roofline,linreg"
has "$TMP/err" "pn-gpu: 184 launches, 0 left out"
for s in sizes kernel gpu-kernel new-gpu; do has "$TMP/out" "$s,all,"; done
has "$TMP/out" "new-gpu,gpu:NVIDIA H200,92,"
# one GPU, one kernel, one launch: nothing to train the kernel and new-gpu
# splits on; they are not scored (no stale fit of another split)
mkdir -p "$TMP/e/profiles"
cp "$DEV" "$TMP/e/"
head -3 "$H/profiles/vectorAdd-H100.csv" > "$TMP/e/profiles/one.csv"
expect 0 "$BIN/pn-gpu" eval "$TMP/e"
has "$TMP/out" "kernel,all,0,,,,"
has "$TMP/out" "new-gpu,gpu:NVIDIA H100 80GB HBM3,0,,,,"
lacks "$TMP/out" "100.0"
has "$TMP/err" "kernel split of NVIDIA H100 80GB HBM3: no launch to train on (its only kernel): not scored"
has "$TMP/err" "new-gpu split of NVIDIA H100 80GB HBM3: no launch to train on (no other GPU)"
expect 0 "$BIN/pn-gpu" eval -f json "$TMP/e"
has "$TMP/out" '"n": 0, "model": null'
expect 1 "$BIN/pn-gpu" eval "$TMP/none"
expect 2 "$BIN/pn-gpu" eval
has "$TMP/err" "eval: expected one DIR"
# readme_table NAME ROWS: the README's table <!-- eval NAME --> is the "all"
# lines of the eval output in $TMP/out
readme_table() {
    sed -n "/^<!-- eval $1 -->/,/^<!-- end -->/p" "$srcdir/../README.md" |
        sed -n 's/^| \([a-z-]*\) | \([0-9]*\) | \([0-9.]*\) | \([0-9.]*\) | \([0-9.]*\) | \([0-9.]*\) |$/\1,all,\2,\3,\4,\5,\6/p' > "$TMP/readme-table"
    [ "$(wc -l < "$TMP/readme-table")" -eq "$2" ] && ok || bad "the README has no $2-line table <!-- eval $1 -->"
    grep ',all,' "$TMP/out" > "$TMP/eval-table"
    cmp -s "$TMP/readme-table" "$TMP/eval-table" && ok || bad "README table $1 differs from pn-gpu eval: $(diff "$TMP/readme-table" "$TMP/eval-table" | tr '\n' ' ')"
}
# the README's table for this data set is what eval prints
expect 0 "$BIN/pn-gpu" eval "$H"
readme_table hopper 4
# and for the data of Amaris et al. with the Rodinia kernels, when it is
# at hand (beside the corpus, as the MCC oracle)
GD="${PN_CORPUS:+$PN_CORPUS/../gpu-data}"
if [ -n "$GD" ] && [ -d "$GD/rodinia" ]; then
    expect 0 "$BIN/pn-gpu" eval "$GD"
    has "$TMP/err" "rodinia: 595 launches of kernels the calibration never sees"
    for k in bpnn_adjust_weights_cuda bpnn_layerforward_CUDA calculate_temp; do
        has "$TMP/out" "rodinia,kernel:$k,"
        has "$TMP/out" "rodinia-new-gpu,kernel:$k,"
    done
    readme_table gpu-data 6
else
    echo "no ../shared/gpu-data: its README table not checked"
fi
finish
