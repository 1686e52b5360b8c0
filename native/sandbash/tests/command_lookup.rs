//! `type`, `which` and `compgen -c` find the utilities added to the registry.
//! Expected values are what GNU bash 5.2 printed on Debian with PATH=/usr/bin:/bin
//! (the sandbox's utilities live in /usr/bin).

mod common;
use common::*;

#[test]
fn type_which_compgen_see_new_utilities() {
    check(
        r#"type dc factor b2sum; which nice egrep envsubst; compgen -c | grep -xE "dc|factor|tsort|basenc|shred" | sort -u; type -t getconf"#,
        "dc is /usr/bin/dc\nfactor is /usr/bin/factor\nb2sum is /usr/bin/b2sum\n/usr/bin/nice\n/usr/bin/egrep\n/usr/bin/envsubst\nbasenc\ndc\nfactor\nshred\ntsort\nfile\n",
        0,
    );
}
