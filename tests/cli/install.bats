#!/usr/bin/env bats
# make install: tools, plugins, the ABI header and man pages land under
# DESTDIR/PREFIX, and an installed tool finds the installed plugins (and
# an out-of-tree plugin built against the installed header).
load common

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

install_to() {
	# a clean make environment, not that of a make check running us
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL \
	    make -s -C "$CG_ROOT" BUILD="$CG_BUILD" DESTDIR="$T/root" PREFIX=/usr install
}

@test "make install puts tools, plugins, header and man pages in place" {
	run install_to
	assert_success
	[ -x "$T/root/usr/bin/cg-parse" ]
	[ -x "$T/root/usr/bin/cg-options" ]
	[ -f "$T/root/usr/lib/cg/plugins/nim.so" ]
	[ -f "$T/root/usr/include/cg/ruleset.h" ]
	[ -f "$T/root/usr/share/man/man5/cgt.5" ]
	[ -f "$T/root/usr/share/man/man7/cg.7" ]
	[ -f "$T/root/usr/share/man/man3/cg-ruleset.3" ]
	[ -f "$T/root/usr/share/man/man1/cg-parse.1" ]
	for t in "$CG_BUILD"/bin/*; do [ -x "$T/root/usr/bin/${t##*/}" ]; done
	for p in "$CG_BUILD"/plugins/*.so "$CG_BUILD"/plugins/*.cgr; do [ -f "$T/root/usr/lib/cg/plugins/${p##*/}" ]; done
}

@test "an installed tool finds the installed plugins, not the build's" {
	install_to
	run env -i "$T/root/usr/bin/cg-parse" -l
	assert_success
	assert_line "$(printf 'nim\tNim: take any number of counters from one heap')"
	run sh -c "env -i '$T/root/usr/bin/cg-parse' -r nim 1+2 | env -i '$T/root/usr/bin/cg-options' -t"
	assert_success
	assert_output "$(printf '1+2\t2, 1, 1+1\t2, 1, 1+1')"
	# the path searched is the installed one
	run env -i "$T/root/usr/bin/cg-parse" -r nosuch 1
	assert_output --partial "$T/root/usr/bin/../lib/cg/plugins"
	refute_output --partial "$CG_BUILD"
}

@test "a plugin built against the installed header is used by installed tools" {
	install_to
	mkdir "$T/rs"
	cc -std=c17 -fPIC -shared -fvisibility=hidden -Wl,-z,defs \
	    -I"$T/root/usr/include" -o "$T/rs/hstring.so" \
	    "$CG_ROOT/examples/ruleset/hstring.c"
	run sh -c "CG_PLUGIN_PATH='$T/rs' '$T/root/usr/bin/cg-parse' -r hstring LR | '$T/root/usr/bin/cg-options' -t -P '$T/rs'"
	assert_success
	assert_output "$(printf 'LR\t0\tL')"
}

@test "installed man pages are lint-clean" {
	install_to
	run mandoc -Tlint -Wwarning "$T"/root/usr/share/man/man*/*
	assert_success
	assert_output ""
}

@test "make install writes cgtools.pc: a ruleset builds with pkg-config's flags and is found in its plugindir" {
	install_to
	[ -f "$T/root/usr/lib/pkgconfig/cgtools.pc" ]
	# pkg-config as it would run on the installed system (the sysroot
	# maps /usr to the DESTDIR tree)
	export PKG_CONFIG_SYSROOT_DIR="$T/root" PKG_CONFIG_LIBDIR="$T/root/usr/lib/pkgconfig"
	run pkg-config --cflags cgtools
	assert_success
	# (pkg-config ends the line with a blank)
	assert_output --regexp "^-I$T/root/usr/include *\$"
	run pkg-config --variable=plugindir cgtools
	assert_output "$T/root/usr/lib/cg/plugins"
	run pkg-config --modversion cgtools
	assert_output "$(cg cg-parse --version | awk '{print $NF}')"
	# the README's commands for an installed suite
	cd "$T"
	cc -std=c17 -fPIC -shared -fvisibility=hidden -Wl,-z,defs \
	    $(pkg-config --cflags cgtools) -o hstring.so "$CG_ROOT/examples/ruleset/hstring.c"
	cp hstring.so "$(pkg-config --variable=plugindir cgtools)"
	run sh -c "env -i '$T/root/usr/bin/cg-parse' -r hstring LLR | env -i '$T/root/usr/bin/cg-canon' -t"
	assert_success
	assert_output "$(printf 'LLR\t3/2')"
}
