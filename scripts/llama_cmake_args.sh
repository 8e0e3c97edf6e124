#!/usr/bin/env bash
# The CMake options that build llama.cpp for this machine's CPU: every x86 instruction set /proc/cpuinfo lists that
# ggml can use, named one by one (GGML_NATIVE=OFF), so a build is what this CPU runs. AMX stays off: a virtual
# machine can list AMX and still trap on its first tile instruction (seen with -march=native here), and the Q4_K
# models hopkit runs do not use it. Elsewhere (no /proc/cpuinfo, not x86) the portable default.
flags=$(grep -m1 '^flags' /proc/cpuinfo 2>/dev/null | cut -d: -f2)
args="-DGGML_NATIVE=OFF"
[ -n "$flags" ] && [ "$(uname -m)" = x86_64 ] || { echo "$args"; exit 0; }
for pair in sse4_2:SSE42 avx:AVX avx2:AVX2 fma:FMA f16c:F16C bmi2:BMI2 avx_vnni:AVX_VNNI avx512f:AVX512 \
            avx512vbmi:AVX512_VBMI avx512_vnni:AVX512_VNNI avx512_bf16:AVX512_BF16; do
    on=OFF
    [[ " $flags " == *" ${pair%%:*} "* ]] && on=ON
    args="$args -DGGML_${pair##*:}=$on"
done
echo "$args -DGGML_AMX_TILE=OFF -DGGML_AMX_INT8=OFF -DGGML_AMX_BF16=OFF"
