"""Tools that read a file a chunk at a time: inputs far larger than one
64 KiB chunk, lines across chunk boundaries, files without a final newline,
what a stopping reader leaves on a shared stdin, and directories as operands."""

tools("seq", "grep", "sed", "awk", "cut", "wc", "tail", "sort", "uniq", "od", "printf",
      "paste", "nl", "rev", "fold", "comm", "strings", "jq", "cmp", "split", "ls", "iconv", "join")

# 300,000 lines (about 1.9 MB, 29 chunks) with a last line lacking its newline.
BIG = r'''seq 300000 > big; printf 'abc' >> big; '''

group("Big files")
t("grep_counts_and_finds_across_chunks", BIG + r'''grep -c 5 big; grep -n '^199999$' big; grep -c '^' big; grep abc big; grep -c -v 7 big''')
t("grep_max_count_and_context_late_in_file", BIG + r'''grep -m2 -n '^2999[0-9][0-9]$' big; grep -B1 -A1 '^250000$' big''')
e("grep_binary_after_the_first_chunk", r'''{ seq 20000; printf 'z\0\n'; echo match; } > late; grep -c match late; grep -a -c z late; grep match late; echo "status=$?"''')
t("wc_big_file_and_stdin", BIG + r'''wc big; wc -l < big; cat big | wc -c''')
t("cut_big_file", BIG + r'''cut -c1-3 big | tail -n 2; cut -c2 big | sort | uniq -c | head -n 3''')
t("sed_big_file", BIG + r'''sed -n '$p' big; echo; sed -n '/^29999[0-9]$/p' big | wc -l; sed -n '$=' big; sed 's/9/x/g' big | tail -n 1 -c 20''')
t("awk_big_file", BIG + r'''awk 'END { print NR, $0 }' big; awk '/^123456$/ { print NR }' big; awk -v RS=0 'END { print NR }' big''')
t("tail_big_file", BIG + r'''tail -n 3 big; echo; tail -c 5 big; echo; tail -n +299998 big; echo; tail -c +1888890 big; echo''')
t("tail_big_stdin", r'''seq 300000 | tail -n 2; seq 300000 | tail -n +299999; seq 300000 | tail -c 7''')
t("head_all_but_last_big", BIG + r'''head -n -299998 big | tail -n 2; seq 300000 | head -n -299998 | wc -l; head -c -1888890 big | wc -c''')
t("line_tools_big_file", BIG + r'''nl big | tail -n 1; rev big | head -n 2; uniq big | wc -l; paste big big | tail -n 1; fold -w 3 big | tail -n 2''')
t("comm_big_sorted_files", r'''seq 1 2 200000 | sort > odd; seq 1 3 200000 | sort > third; comm -12 odd third | wc -l; comm -3 odd third | tail -n 2; comm --total odd third | tail -n 1''')
e("comm_unsorted_big_file", r'''seq 100000 > a; sort a > b; comm -3 a b | wc -l; echo "status=${PIPESTATUS[0]}"''')
t("jq_values_across_chunks", r'''seq 100000 | awk '{ printf "{\"n\": %d,\n \"s\": \"v%d\"}\n", $1, $1 }' > j; jq -s 'length' j; jq -c 'select(.n == 77777)' j; jq -r 'input_filename' j | uniq -c; jq -n '[inputs.n] | add' j j''')
t("jq_raw_lines_across_chunks", r'''seq 100000 > lines; jq -R 'length' lines | sort | uniq -c; jq -Rs 'length' lines; jq -R . lines | tail -n 1''')
t("strings_runs_across_chunks", r'''{ seq 20000; printf '\001ab\002'; seq 30000; } > s; strings s | wc -l; strings -t d s | tail -n 1; strings -n 2 s | grep -c ab; printf 'abc\0defg' | strings -n 4''')
e("cmp_big_files", r'''seq 200000 > a; seq 200000 > b; cmp a b; echo $?; sed 's/^150000$/15000x/' a > c; cmp a c; echo $?; cmp -l a c; cmp -b a c; head -n 199999 a > d; cmp a d; echo $?; cmp -i 100 a c; cmp a c 7 7; echo $?; cat c | cmp -l a -; seq 200000 | cmp - a; echo $?''')
e("split_big_file", r'''seq 200000 > in; split -l 30000 in; wc -l x* | tail -n 3; split -b 100000 in b_; ls b_* | wc -l; wc -c b_ak b_am; cat b_* | cmp - in; split -l 7 -a 1 in tiny; echo "status=$?"; ls tiny* | wc -l''')
t("split_stdin_pieces", r'''seq 10 | split -l 3 - s_; head s_*; printf 'abc' | split -b 1 -d - d; ls d*; printf 'a\nb\nc' | split -l 2 --verbose - v; cat vab; echo''')
e("iconv_big_file", r'''seq 30000 | awk '{ printf "caf\303\251 na\303\257ve \342\202\254 %d\n", $1 }' > u8; iconv -f utf-8 -t latin1//TRANSLIT u8 | wc -c; iconv -f utf-8 -t utf-16 u8 | wc -c; iconv -f utf-8 -t utf-16 u8 | iconv -f utf-16 -t utf-8 | cmp - u8 && echo same; iconv -c -f utf-8 -t ascii u8 | tail -n 1; { seq 20000; printf 'x\377y\n'; } > bad; iconv -f utf-8 -t utf-8 bad | tail -n 1; echo " rc=${PIPESTATUS[0]}"''')
e("join_big_files", r'''seq 1 2 100000 | sort > a; seq 1 3 100000 | awk '{ print $1, "v" $1 }' | sort > b; join a b | wc -l; join a b | tail -n 2; join -v1 a b | wc -l; join -a2 -e X -o 0,1.1,2.2 a b | tail -n 1; seq 100000 > u; join u u | tail -n 1; echo "rc=${PIPESTATUS[0]}"''')

group("Small edge cases")
t("tail_and_head_edges", r'''seq 5 | tail -n 0; printf 'a\nb' | tail -n 1; echo; printf 'x\ny\n' | tail -n +0; seq 3 | head -n -0; printf 'a\nb' | head -n -1''')
t("tail_lines_zero_terminated", r'''printf 'a\0b\0c' | tail -z -n 2 | od -An -c''')
t("awk_octal_escapes_are_bytes", r'''awk 'BEGIN { s = "\303\251"; print length(s), s; printf "\342\202\254\n" }'; awk -v 'v=\303\251' 'BEGIN { print length(v), v, "\x41\101" }' ''')
t("cut_without_final_newline", r'''printf 'a:b\nc:d' | cut -d: -f2; printf '' | cut -c1; echo end''')

group("A shared stdin")
t("grep_max_count_leaves_the_rest", r'''printf 'a\nb\nc\nd\n' > f; { grep -m1 b; cat; } < f''')
t("grep_quiet_reads_on", r'''printf 'a\nb\nc\nd\n' > f; { grep -q c; echo "status=$?"; cat; } < f''')
t("sed_quit_leaves_the_rest", r'''seq 100000 > n; { sed 2q; head -n 1; } < n''')
t("paste_takes_alternate_lines", r'''seq 5 | paste - -''')

group("Directories as operands")
e("directory_operands", r'''mkdir d; tail d; echo $?; head d; echo $?; cut -f1 d; echo $?; wc d; echo $?; sed p d; echo $?; awk 1 d; echo $?; grep x d; echo $?''')
e("missing_operands", r'''tail -n2 nope; echo $?; cut -c1 nope; echo $?; wc nope; echo $?''')

group("jq: its messages among its output, and runs that outgrow running inline")
# jq's stdout is block-buffered (4 KiB blocks as they fill) and its stderr is not.
e("jq_message_after_the_blocks_written", r'''seq 3000 > n; jq . n nope 2>&1 | grep -b -a error; echo "rc=${PIPESTATUS[0]}"; seq 2000 | jq '., (if . == 1500 then error("x") else empty end)' 2>&1 | grep -b -a error''')
e("jq_debug_among_output", r'''jq -n 'range(3000) | if . % 1000 == 0 then debug else . end' 2>&1 | grep -b -a DEBUG; echo '[1,2]' | jq '.[] | debug' 2>&1''')
# More output, more time or more input than a run on the interpreter's thread takes.
t("jq_runs_that_give_way", r'''jq -n 'range(200000)' | tail -n 2; jq -n 'range(200000)' | head -n 2; jq -n '[range(2000000)] | add'; seq 30000 | jq -s add; seq 5 | jq -n '[inputs] | add'; seq 5 | jq -n 'input, input'; seq 3 | { jq -n 'first(inputs)'; cat; }''')
# --unbuffered: each output reaches a coprocess's reader as it comes.
e("jq_unbuffered_in_a_coprocess", r'''coproc jq --unbuffered -c '.a'
for i in 1 2 3; do echo "{\"a\":$i}" >&"${COPROC[1]}"; read -r line <&"${COPROC[0]}"; echo "got $line"; done
eval "exec ${COPROC[1]}>&-"; wait; echo "rc=$?"''')
