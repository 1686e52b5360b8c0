"""The `PATH` search as bash does it: utilities are found only through
`PATH` (a `PATH` without `/usr/bin` and `/bin` finds none), a prefix or
local `PATH` counts for its command, an empty or unset `PATH` runs the name
from the current directory, and `type`, `command -v` and `hash` agree."""

tools("ls", "env", "xargs", "find", "printf", "chmod", "rmdir", "ln", "rm", "mv")

group("PATH leaving the utilities out")
e("not_found_without_their_directory", r'''PATH=/nonexistent; ls; echo $?; type ls; echo $?; command -v ls; echo $?; hash ls; echo $?''')
e("a_path_still_runs_them", r'''PATH=/nonexistent; /bin/ls -d /dev; echo $?''')
e("utilities_that_run_others", r'''PATH=/nonexistent; env; echo $?; xargs echo </dev/null; echo $?''')
e("prefix_assignment_counts_for_its_command", r'''PATH=/x ls; echo $?; ls -d /dev''')
e("builtins_stay", r'''PATH=/nonexistent; printf '%s\n' builtin; echo x | read v; type -t printf echo cd''')
e("disabled_builtin_is_gone", r'''PATH=/nonexistent; type printf; enable -n printf; type printf; echo $?; printf x; echo " $?"; enable printf; printf 'back\n' ''')

group("Empty or unset PATH")
e("empty_path", r'''PATH=; ls; echo $?; type ls; echo $?''')
e("unset_path", r'''unset PATH; ls /dev/null; echo $?; command -v ls; echo $?''')
e("colon_path", r'''PATH=:; ls; echo $?''')
e("an_executable_in_the_current_directory", "mkdir -p d; printf '#!/bin/sh\\necho ran\\n' > d/tool; chmod +x d/tool; cd d; PATH=; tool; echo $?; PATH=:; tool; echo $?")

group("ls in a removed working directory")
t("ls_in_a_removed_working_directory_lists_nothing", r'''mkdir test-dir; cd test-dir; rmdir "$(pwd)"; ls; echo "st=$?"; ls -a >/dev/null; echo "st=$?"''')

group("Hard links: one file, several names")
t("hard_links_share_contents_and_identity", r'''echo a > l; ln l h; echo b >> l; cat h; [ l -ef h ] && echo same; [[ h -ef l ]] && echo same2
echo c > h; cat l; chmod 600 h; rm l; cat h; [ h -ef h ] && echo self
mkdir d; ln h d/x; mv d e; echo z >> e/x; cat h; rm -r e; cat h
ln h h2; mv h2 h3; [ h -ef h3 ] && echo moved; ln h3 h; echo "st=$?"; ls''')
