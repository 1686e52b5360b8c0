# The command table: one lookup for running a command and for `type`,
# `command`, `hash` and `compgen -c`, with bash's PATH search (a script of the
# sandbox in an earlier PATH directory shadows a later one).
tools("chmod", "env", "xargs")

group("PATH search")
t("a_script_on_path_shadows_a_later_command", r'''mkdir -p pb; printf 'echo mine\n' > pb/cat; chmod +x pb/cat; PATH="$PWD/pb:$PATH"; type cat; command -v cat; type -t cat; command -V cat; cat; hash -t cat''')
t("the_first_of_two_scripts_runs_type_a_lists_both", r'''mkdir -p a b; printf 'echo a\n' > a/t; printf 'echo b\n' > b/t; chmod +x a/t b/t; PATH="$PWD/a:$PWD/b"; type -a t; type -P t; t; PATH="$PWD/b:$PWD/a"; t''')
e("a_file_without_x_is_permission_denied_and_not_found_by_type", r'''mkdir -p pb; echo 'echo x' > pb/nox; PATH="$PWD/pb:$PATH"; type nox; echo $?; command -v nox; echo $?; nox; echo $?''')
t("a_function_comes_first_command_skips_it", r'''mkdir -p a; printf 'echo file\n' > a/t; chmod +x a/t; PATH="$PWD/a"; t() { echo func; }; type -t t; type -f t; command -v t; t; command t''')
t("a_disabled_builtin_finds_the_script", r'''mkdir -p a; printf 'printf "file %%s\\n" "$*"\n' > a/echo; chmod +x a/echo; PATH="$PWD/a"; echo builtin; type -a echo; enable -n echo; type echo; echo x; enable echo; echo back''')
t("compgen_c_lists_scripts_on_path", r'''mkdir -p a; printf 'x\n' > a/mytool; printf 'x\n' > a/mynox; chmod +x a/mytool; PATH="$PWD/a:$PATH"; compgen -c myt; compgen -A command mynox; echo $?''')
e("hash_and_type_of_a_missing_name", r'''hash nope_x; echo $?; type nope_x; echo $?; command -V nope_x; echo $?''')
t("env_and_xargs_run_a_script_on_path", r'''mkdir -p a; printf '#!/bin/sh\necho "hi $1"\n' > a/greet; chmod +x a/greet; PATH="$PWD/a:$PATH"; env greet x; echo y | xargs greet; echo z | xargs ./a/greet''')
