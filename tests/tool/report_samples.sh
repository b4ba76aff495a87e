#!/bin/sh
# An application that fails with one of FiberCL's failure reports, chosen by
# FIBERCL_SEED % 7 and varying with the seed where the real ones vary (work-group ids,
# addresses, which group waits where), for `fibercl explore`'s summary by place. The
# texts follow the runtime's (runtime/exec/yield_report.cpp, fault.cpp, fibers.cpp,
# kernel_timeout.cpp, yield_launch.cpp): change them together.
s=${FIBERCL_SEED:?FIBERCL_SEED is not set}
case $((s % 7)) in
1) echo "FiberCL: kernel 'k' crashed in work-group ($s,0,0): SIGFPE (integer divide by zero)" ;;
2) echo "FiberCL: kernel 'w' in work-group ($s,1,0) entered a loop that can never exit" \
        "(<source>:12), so the command could never complete: it fails. (A wait for" \
        "another work-group must re-read what that group writes: an atomic or volatile load.)" ;;
3) echo "FiberCL: kernel 'd': barrier divergence in work-group ($s,0,0): work-item" \
        "($s,0,0) waits at barrier #2 but work-item (0,0,0) waits at barrier #1"
   echo "  barrier #2 is at <source>:9 (barrier) in d"
   echo "  barrier #1 is at <source>:5 (barrier) in d" ;;
4) echo "FiberCL: kernel 't' has run for longer than FIBERCL_KERNEL_TIMEOUT=1 seconds: the" \
        "command fails (CL_OUT_OF_RESOURCES), and its work-groups still running are stopped"
   echo "FiberCL: kernel 't': work-group ($s,0,0) stopped" ;;
5) echo "FiberCL: deadlock in kernel 'x'"
   echo "  policy fair, occupancy bound 2, seed $s"
   echo "  work-group $((s % 2)): at barrier, spinning at <source>:7 (loop poll) in x"
   echo "  work-group $((1 - s % 2)): spinning at <source>:3 (atomic read) in x"
   echo "  work-groups 2-3: waiting for admission"
   echo "  reproduce with: FIBERCL_SCHEDULE=fair FIBERCL_OCCUPANCY=2 FIBERCL_SEED=$s" ;;
6) echo "FiberCL: kernel 'c': work-group $s: work-item (1,0,0) made $s cooperative calls" \
        "but another made $((s + 1)) (offer_kill, request_fork and the global barriers are" \
        "work-group functions: every work-item must reach each one)" ;;
0) echo "FiberCL: kernel 'k' crashed in work-group ($s,0,0): SIGSEGV (invalid memory" \
        "access (address not mapped) at address 0x$s$s)" ;;
esac >&2
exit 1
