#!/bin/sh
# ffmpeg's OpenCL filters on FiberCL against their CPU twins (issue 13): each filter
# runs on a generated clip through hwupload/hwdownload, and its frames are compared
# with the CPU filter's by PSNR (ffmpeg's `psnr` filter). OpenCL filters round
# differently from the CPU ones (PoCL's unsharp_opencl is 47.9 dB from the CPU's), so
# "the same frames" means: PSNR of every plane >= $MIN_PSNR dB (default 40; identical
# planes are "inf").
#
#   conformance/ffmpeg/run_filters.sh <fibercl.icd> [<other.icd> ...]
#
# Prints one line per filter and ICD; exits 1 if any filter fails on the first ICD
# (the others, e.g. PoCL's, are printed for comparison only). Needs Debian's ffmpeg.
set -u
MIN_PSNR=${MIN_PSNR:-40}
if [ $# -lt 1 ]; then
  echo "usage: $0 <fibercl.icd> [<other.icd> ...]" >&2
  exit 2
fi
if ! command -v ffmpeg >/dev/null 2>&1; then
  echo "SKIPPED: ffmpeg is not installed (apt-get install ffmpeg)" >&2
  exit 77
fi
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
size=320x240
raw="-f rawvideo -pix_fmt yuv420p -s $size"
ffmpeg -nostdin -hide_banner -loglevel error -f lavfi -i testsrc2=size=$size:rate=5:duration=1 \
  -vf format=yuv420p -f rawvideo -y "$work/in.yuv" || exit 1
ffmpeg -nostdin -hide_banner -loglevel error -f lavfi -i mandelbrot=size=$size:rate=5 -frames:v 5 \
  -vf format=yuv420p -f rawvideo -y "$work/in2.yuv" || exit 1

# OpenCL filter | CPU twin (the overlay pair takes the second clip as its second
# input). Left out: xfade_opencl, whose chroma differs from the CPU xfade's by design
# (34-37 dB on PoCL too); sobel/prewitt/roberts are compared on luma (planes=1): their
# OpenCL and CPU forms treat chroma differently (25-44 dB on PoCL).
pairs='unsharp_opencl|unsharp
unsharp_opencl=lx=7:ly=7:la=2.0:cx=3:cy=3:ca=0.5|unsharp=7:7:2.0:3:3:0.5
avgblur_opencl=sizeX=3|avgblur=sizeX=3
boxblur_opencl=luma_radius=2:luma_power=2|boxblur=luma_radius=2:luma_power=2
convolution_opencl=0m=0 -1 0 -1 5 -1 0 -1 0:1m=0 -1 0 -1 5 -1 0 -1 0:2m=0 -1 0 -1 5 -1 0 -1 0|convolution=0m=0 -1 0 -1 5 -1 0 -1 0:1m=0 -1 0 -1 5 -1 0 -1 0:2m=0 -1 0 -1 5 -1 0 -1 0
sobel_opencl=planes=1|sobel=planes=1
prewitt_opencl=planes=1|prewitt=planes=1
roberts_opencl=planes=1|roberts=planes=1
dilation_opencl|dilation
erosion_opencl|erosion
transpose_opencl=dir=clock|transpose=dir=clock
pad_opencl=w=352:h=256:x=16:y=8|pad=w=352:h=256:x=16:y=8
overlay_opencl=x=40:y=30|overlay=x=40:y=30'

first=$1
echo "$pairs" | while IFS='|' read -r ocl cpu; do
  name=${ocl%%=*}
  outsize=$size
  case $name in
    transpose_opencl) outsize=240x320 ;;
    pad_opencl) outsize=352x256 ;;
  esac
  two=0
  case $name in overlay_opencl) two=1 ;; esac
  if [ $two = 1 ]; then
    inputs="$raw -i $work/in.yuv $raw -i $work/in2.yuv"
    cpuGraph="[0][1]$cpu,format=yuv420p"
    oclGraph="[0]hwupload[a];[1]hwupload[b];[a][b]$ocl,hwdownload,format=yuv420p"
  else
    inputs="$raw -i $work/in.yuv"
    cpuGraph="$cpu,format=yuv420p"
    oclGraph="hwupload,$ocl,hwdownload,format=yuv420p"
  fi
  # shellcheck disable=SC2086
  ffmpeg -nostdin -hide_banner -loglevel error $inputs -filter_complex "$cpuGraph" -f rawvideo \
    -y "$work/cpu.yuv" || { echo "$name: the CPU twin failed"; continue; }
  for icd in "$@"; do
    label=$(basename "$icd" .icd)
    dir="$work/vendors"; rm -rf "$dir"; mkdir -p "$dir"; cp "$icd" "$dir/"
    # shellcheck disable=SC2086
    if ! OCL_ICD_VENDORS=$dir timeout 300 ffmpeg -nostdin -hide_banner -loglevel error \
        -init_hw_device opencl=ocl:0.0 -filter_hw_device ocl $inputs \
        -filter_complex "$oclGraph" -f rawvideo -y "$work/ocl.yuv" 2>"$work/err"; then
      echo "$name on $label: FAILED to run: $(head -c 300 "$work/err")"
      [ "$icd" = "$first" ] && echo fail >> "$work/failures"
      continue
    fi
    psnr=$(ffmpeg -nostdin -hide_banner -f rawvideo -pix_fmt yuv420p -s $outsize -i "$work/ocl.yuv" \
      -f rawvideo -pix_fmt yuv420p -s $outsize -i "$work/cpu.yuv" -lavfi psnr -f null - 2>&1 |
      grep -o 'PSNR y:[^ ]* u:[^ ]* v:[^ ]*' | tail -1)
    worst=$(echo "$psnr" | tr ' ' '\n' | grep ':' | cut -d: -f2 | grep -v '^$' |
      sed 's/^inf$/999/' | sort -n | head -1)
    verdict=ok
    if [ -z "$worst" ] || awk "BEGIN { exit !($worst < $MIN_PSNR) }"; then
      verdict="DIFFERS (< $MIN_PSNR dB)"
      [ "$icd" = "$first" ] && echo fail >> "$work/failures"
    fi
    echo "$name on $label: $psnr -> $verdict"
  done
done
if [ -s "$work/failures" ]; then
  echo "FAILED: $(wc -l < "$work/failures") filter(s) on $(basename "$first")"
  exit 1
fi
echo "all filters within $MIN_PSNR dB of their CPU twins on $(basename "$first")"
