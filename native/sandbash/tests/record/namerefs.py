"""Namerefs with other attributes and references to array elements: `-i`
refused with a value, `-l`/`-u`/`-c`/`-t` given to the reference itself,
arrays and `@`/`*` stored through an element reference, and `export`/
`readonly` through one (the value stored, the attribute refused)."""

tools("env", "grep")

group("Attributes given with -n")
e("integer_with_a_value_is_refused", r'''target=0; declare -ni ref=target; echo "s=$?"; ref=hello; declare -p ref target; declare -ni a=x b=y; echo "s=$?"; declare -p a b''')
t("integer_without_a_value", r'''declare -i -n a; echo "s=$?"; declare -p a; typeset -ni q; echo "s=$?"; declare -p q''')
t("integer_in_a_function", r'''f() { local -ni a=x; echo "s=$?"; local -n b=x; declare -p b; }; f''')
t("case_attributes_change_the_name", r'''declare -nu ref=target; declare -p ref; declare -nl r=ABC; declare -p r; declare -nc r2=abc; declare -p r2; TARGET=up; echo "$ref"''')
t("trace_attribute", r'''declare -nt r=x; declare -p r; x=1; declare -p x''')
t("case_attribute_on_the_target", r'''x=1; declare -n r=x; declare -u r; declare -p r x; r=abc; echo "$x"''')

group("Storing through a reference to an element")
e("an_array_is_no_identifier", "arr=(1 2 3); declare -n ref='arr[2]'\nref=(a b c)\necho \"exit: $?\"\ndeclare -p arr ref")
e("appending_an_array_is_no_identifier", "arr=(a b c); declare -n ref='arr[0]'\nref+=(x y z)\necho \"exit: $?\"\necho \"${arr[@]}\"")
e("the_rest_of_the_line_is_abandoned", "arr=(a b c); declare -n ref='arr[1]'\nref=(q); echo same line\necho next line $?")
e("all_elements_are_no_target", "arr=(a b c); declare -n ref='arr[@]'\nref=new\necho \"exit: $?\"\ndeclare -p arr; declare -n s='arr[*]'\ns+=x\necho \"exit: $?\"")
t("strings_are_stored", r'''arr=(a b c); declare -n ref='arr[1]'; ref=q; declare -p arr; ref+=r; declare -p arr; echo "${ref} ${#ref}"; declare ref=k; declare -p arr''')
t("integer_array_element", r'''declare -ai arr=(10 20 30); declare -n ref='arr[1]'; ref+=5; ref+=2*3; echo "${arr[@]}"''')

group("export and readonly through a reference to an element")
e("export_refuses_the_attribute", r'''arr=(a b c); declare -n ref='arr[1]'; export ref; echo "exit: $?"; declare -p arr ref; env | grep -c '^arr' ''')
e("export_with_a_value_stores_it", r'''arr=(a b c); declare -n ref='arr[1]'; export ref=zz; echo "exit: $?"; declare -p arr''')
e("readonly_refuses_the_attribute", r'''arr=(a b c); declare -n ref='arr[1]'; readonly ref; echo "exit: $?"; declare -p arr; ref=z; echo $?; arr[0]=new; declare -p arr''')
e("readonly_with_a_value_stores_it", r'''arr=(a b c); declare -n ref='arr[1]'; readonly ref=zz; echo "exit: $?"; declare -p arr''')
t("declare_gives_the_array_the_attribute", r'''arr=(a b c); declare -n ref='arr[1]'; declare -x ref; echo "exit: $?"; declare -p arr; declare -i ref; declare -p arr''')
