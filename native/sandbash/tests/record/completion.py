"""Programmable completion without a line editor: `compgen` with every
action, `-W` split at IFS with quotes and expansions, `-X` filters (`!`,
`&`, extglob), `-P`/`-S`, `-G`, `-F` and `-C`, the `-o` fallbacks, the
status when nothing matches; `complete` definitions printed back with `-p`,
removed with `-r`, `-D`/`-E`/`-I`; `compopt`."""

tools("touch", "sort", "chmod", "ln")

group("compgen actions")
t("alias_function_keyword", r'''alias ll=ls la=ls; f1() { :; }; f2() { :; }; compgen -a l; compgen -A function f; compgen -k; echo "k $?"''')
t("builtins_and_status", r'''compgen -b ec; compgen -A builtin comp; compgen -b zzz; echo "none $?"''')
t("enabled_disabled", r'''enable -n echo test; compgen -A disabled; compgen -A enabled ec; printf 's %s\n' $?; enable echo test; compgen -A disabled; echo "d $?"''')
t("variables_exports_arrays", r'''zvar=1; export zexp=2; zarr=(1); declare -A zmap=([a]=1); declare -a zdecl; compgen -v z; echo --; compgen -e zex; echo --; compgen -A arrayvar z''')
t("files_and_directories", r'''touch f1 f2 .hid; mkdir d1 d2; compgen -f | sort; echo --; compgen -d | sort; echo --; compgen -f d | sort; echo --; compgen -A file .h''')
t("files_in_a_directory", r'''mkdir -p sub/inner; touch sub/a sub/b; compgen -f sub/ | sort; compgen -d sub/; compgen -f nosuch/; echo "s $?"''')
t("tilde_word_kept", r'''HOME=$PWD; touch item; compgen -f '~/it'; compgen -d '~/'; echo "s $?"''')
t("signals_and_options", r'''compgen -A signal SIGUS; compgen -A setopt no; compgen -A shopt nocase; compgen -A helptopic rea''')
t("commands_in_path", r'''mkdir bin; touch bin/tool bin/plain; chmod +x bin/tool; ln -s "$PWD/bin/tool" link1; ln -s "$PWD/bin/plain" link2; ln -s "$PWD/nope" link3; chmod +x link1; PATH=$PWD/bin:$PWD; compgen -c too; compgen -c lin; echo "s $?"; compgen -c ./bin/''')
t("command_lists_the_shell_first", r'''PATH=$PWD; alias myal=x; myfn() { :; }; compgen -c my; compgen -c '[' ; compgen -c th''')
t("actions_in_bash_order", r'''alias zz=1; zz() { :; }; zz=1; compgen -v -A function -a zz''')

group("compgen -W -G -X -P -S")
t("wordlist_split_and_expanded", r'''v=value; compgen -W 'one two three' -- t; compgen -W '${v} "a b" $(echo sub)'; IFS=:; compgen -W 'x:y z'; unset IFS; compgen -W 'a* b?'; echo "s $?"''')
t("wordlist_prefix_suffix", r'''compgen -P '<' -S '>' -W 'ab ac b' a; compgen -P-pre -S-suf -W 'one two' -- o; compgen -P'x ' -W 'w' -- ""''')
t("filter", r'''compgen -W 'foo bar baz' -X 'b*'; echo --; compgen -W 'foo bar baz' -X '!b*'; echo --; compgen -W 'some other' -X '&*' so; echo --; compgen -W '&1 foo' -X '\&*' ''; echo --; compgen -W 'a b' -X '*'; echo "s $?"''')
t("filter_with_extglob", r'''shopt -s extglob; compgen -W 'README READ' -X '!(READ)'; echo --; compgen -W 'README READ' -X '!!(READ)'; echo --; compgen -W 'ab cd' -X '@(a*|c*)'; echo "s $?"''')
t("glob", r'''touch a.c b.c c.h; compgen -G '*.c' | sort; compgen -G '*.x'; echo "s $?"; compgen -G '*.c' -P '<' -X 'a*' ''')
t("option_fallbacks", r'''mkdir sdir; touch sfile; compgen -W 'word' -o dirnames s; echo --; compgen -W 'word' -o default s | sort; echo --; compgen -W 'sword' -o plusdirs -S '!' s; echo --; compgen -W 'word' -o bashdefault s; echo "s $?"''')

group("compgen -F and -C")
e("function_gets_empty_comp_vars", r'''_c() { echo "args[$#]: $*|"; echo "$COMP_CWORD/$COMP_POINT/$COMP_TYPE/$COMP_KEY/[$COMP_LINE]/${#COMP_WORDS[@]}"; COMPREPLY=(zz "a b"); }; compgen -F _c wo; echo "s $?"; _d() { COMPREPLY=(); }; compgen -F _d x; echo "s $?"''')
e("command_output_lines", r'''compgen -C 'echo one; echo two' w; echo "s $?"''')

group("compgen errors")
e("bad_action_and_option", r'''compgen -A bogus; echo $?; compgen -o bogus; echo $?; compgen -Z; echo $?; compgen -W; echo $?''')

group("complete and compopt")
t("print_roundtrip", r'''complete -W 'foo bar' -P 'my p' -S "it's" -X '!*.c' -G '*.c' -F fn -C 'c md' -o nospace -o default -A alias -A signal -b -f cmd1; complete -p cmd1; complete -F _f -o filenames c2 c3; complete -p c2 c3''')
e("remove_and_missing", r'''complete -W x a; complete -W y b; complete -r a; complete -p b; complete -p a; echo $?; complete -r zz; echo $?; complete -r; complete -p; echo "empty $?"''')
t("default_empty_initial", r'''complete -D -W x; complete -p -D; complete -E -f; complete -p -E; complete -I -d; complete -p -I''')
e("compopt_options", r'''complete -o nospace -W x c1; compopt -o filenames c1; complete -p c1; compopt +o nospace c1; complete -p c1; compopt c1; compopt -o bogus c1; echo $?; compopt -o nospace nosuch; echo $?''')
e("complete_bad_action", r'''complete -A bogus x; echo $?; complete -p nosuch; echo $?''')
