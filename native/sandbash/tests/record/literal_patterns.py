"""Patterns without special characters in `${x/pat/rep}`, `${x#pat}` and their
forms are searched as plain text; these cases hold them to what bash does where
plain text is easy to get wrong: occurrences that overlap, multibyte
characters, matches at either end, quoted special characters, an empty value,
and the options that make a pattern more than text."""

tools("printf")

group("literal patterns")
t("replace_first_all_prefix_suffix", r'''x=hello_world_world
printf '%s\n' "${x/world/bash}" "${x//world/bash}" "${x/#hello/HI}" "${x/%world/END}"
printf '%s\n' "${x/#world/no}" "${x/%hello/no}" "${x/nothere/no}" "${x//o/0}"''')
t("overlapping_occurrences", r'''x=aaaaa
printf '%s\n' "${x//aa/b}" "${x/aa/b}" "${x/%aa/b}" "${x/#aa/b}" "${x//a/}"
y=abababa
printf '%s\n' "${y//aba/X}" "${y//ab/&}" "${y#aba}" "${y%aba}" "${y##aba}" "${y%%aba}"''')
t("multibyte_text", r'''x='héllo wörld é'
printf '%s\n' "${x//é/e}" "${x/ö/o}" "${x%é}" "${x#hé}" "${x//l/L}"
y=ééé
printf '%s\n' "${y//éé/E}" "${y/%é/E}" "${#y}"''')
t("quoted_specials_are_text", r'''x='a*b?c[d]e\f'
printf '%s\n' "${x/"*"/-}" "${x//'?'/-}" "${x/\[d\]/-}" "${x/"[d]"/-}" "${x/\\/-}" "${x#"a*"}"
p='*'; printf '%s\n' "${x/"$p"/+}" "${x/$p/+}"''')
t("empty_and_whole_values", r'''x=; printf '[%s]\n' "${x/a/b}" "${x//a/b}" "${x#a}"
x=abc; printf '[%s]\n' "${x/abc/}" "${x//abc/Z}" "${x#abc}" "${x%abc}" "${x/abcd/Z}"
set -- one two three; printf '[%s]\n' "${@/o/0}" "${*//e/E}"
a=(foo bar foobar); printf '[%s]\n' "${a[@]/foo/X}" "${a[@]#foo}"''')
t("replacement_text_and_ampersand", r'''x=one.two.three
printf '%s\n' "${x//./ }" "${x/two/[&]}" "${x//e/\&}"
shopt -s patsub_replacement 2>/dev/null; printf '%s\n' "${x//o/<&>}"
shopt -u patsub_replacement; printf '%s\n' "${x//o/<&>}"''')
t("options_that_change_a_text_pattern", r'''x=Hello_HELLO_hello
shopt -s nocasematch; printf '%s\n' "${x//hello/x}" "${x/#HELLO/y}"
shopt -u nocasematch; printf '%s\n' "${x//hello/x}"
shopt -s extglob; y=a+b@c; printf '%s\n' "${y/+b/-}" "${y/@c/-}" "${y//@(b|c)/-}"''')
