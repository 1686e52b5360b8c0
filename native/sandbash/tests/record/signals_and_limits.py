"""`kill -l` and `trap -l` print bash's signal table (five to a line), and
translate numbers, names and exit statuses past 128; `trap` takes every
signal name (real-time ones too). `ulimit` keeps a shell's limits: set both,
soft or hard, bash's errors for a soft limit above the hard one and for
raising a hard one, labelled lines for several, a subshell's own."""

group("Signal names")
t("the_table", r'''kill -l; trap -l''')
t("numbers_names_and_statuses", r'''kill -l 9 15 2 64; kill -l HUP sigint 0 EXIT; kill -l 137 143 192; kill -l -- 9; kill -l sigrtmin+2 RTMAX-1 34 RTMIN+16 RTMIN+15''')
e("invalid_specifications", r'''kill -l 65; echo "st=$?"; kill -l 9 foo 2; echo "st=$?"; kill -l 300 128 257 sigiot POLL RTMAX-15; echo "st=$?"; kill -l ""; echo "st=$?"''')
t("trap_takes_every_signal", r'''trap "echo hi" RTMIN; trap -p; trap "" 34; trap -p RTMIN; trap x STKFLT; trap -p STKFLT; trap - STKFLT RTMIN; trap -p; echo end''')

group("ulimit")
e("set_both_then_soft_and_hard", r'''ulimit -n 512; ulimit -n; ulimit -Hn; ulimit -Sn 100; ulimit -Sn; ulimit -Hn; ulimit -Sn 600; echo "st=$?"; ulimit -Hn 50; echo "st=$?"; ulimit -n 600; echo "st=$?"''')
e("values_and_keywords", r'''ulimit -f 100; ulimit -f; ulimit; ulimit -c unlimited; ulimit -Sc 10; ulimit -c; ulimit -n 64; ulimit -n soft; ulimit -n; ulimit -n abc; echo "st=$?"; ulimit -t unlimited; ulimit -t''')
t("several_are_labelled", r'''ulimit -n 256; ulimit -c 0; ulimit -f 10; ulimit -c -n -f; ulimit -Sf -n''')
e("invalid_options", r'''ulimit -z; echo "st=$?"; ulimit -b; ulimit -P; ulimit -T; ulimit -k; echo "st=$?"''')
t("a_subshell_keeps_its_own", r'''ulimit -n 300; ( ulimit -n 50; ulimit -n ); ulimit -n; x=$(ulimit -n 20; ulimit -n); echo "$x $(ulimit -n)"''')
t("is_a_builtin", r'''type ulimit; type -t kill; help -d ulimit''')
