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

# make in a clean environment, not that of a make check running us
make_clean() {
	env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u PREFIX -u LIBDIR \
	    -u PLUGINDIR make -s -C "$CG_ROOT" "$@"
}

# Into a staging directory, at the prefix the build under test was made
# for (the default): nothing is rebuilt in the build other tests use.
install_to() {
	make_clean BUILD="$CG_BUILD" DESTDIR="$T/root" install
}

@test "make install puts tools, plugins, header and man pages in place" {
	run install_to
	assert_success
	[ -x "$T/root/usr/local/bin/cg-parse" ]
	[ -x "$T/root/usr/local/bin/cg-options" ]
	[ -f "$T/root/usr/local/lib/cg/plugins/nim.so" ]
	[ -f "$T/root/usr/local/include/cg/ruleset.h" ]
	# the public extensions' headers, and not the private ones
	# (include/cgx/README.md)
	for h in heaprules impartial value rank conjugate gamelit; do
		[ -f "$T/root/usr/local/include/cg/$h.h" ]
	done
	[ ! -e "$T/root/usr/local/include/cgx" ]
	[ ! -e "$T/root/usr/local/include/cg/bitsearch.h" ]
	[ -f "$T/root/usr/local/share/man/man5/cgt.5" ]
	[ -f "$T/root/usr/local/share/man/man7/cg.7" ]
	[ -f "$T/root/usr/local/share/man/man3/cg-ruleset.3" ]
	[ -f "$T/root/usr/local/share/man/man1/cg-parse.1" ]
	for t in "$CG_BUILD"/bin/*; do [ -x "$T/root/usr/local/bin/${t##*/}" ]; done
	for p in "$CG_BUILD"/plugins/*.so "$CG_BUILD"/plugins/*.cgr; do [ -f "$T/root/usr/local/lib/cg/plugins/${p##*/}" ]; done
}

@test "an installed tool finds the installed plugins, not the build's" {
	install_to
	run env -i "$T/root/usr/local/bin/cg-parse" -l
	assert_success
	assert_line "$(printf 'nim\tNim: take any number of counters from one heap')"
	run sh -c "env -i '$T/root/usr/local/bin/cg-parse' -r nim 1+2 | env -i '$T/root/usr/local/bin/cg-options' -t"
	assert_success
	assert_output "$(printf '1+2\t2, 1, 1+1\t2, 1, 1+1')"
	# the path searched is the installed one
	run env -i "$T/root/usr/local/bin/cg-parse" -r nosuch 1
	assert_output --partial "$T/root/usr/local/bin/../lib/cg/plugins"
	refute_output --partial "$CG_BUILD"
}

@test "a plugin built against the installed header is used by installed tools" {
	install_to
	mkdir "$T/rs"
	cc -std=c17 -fPIC -shared -fvisibility=hidden -Wl,-z,defs \
	    -I"$T/root/usr/local/include" -o "$T/rs/hstring.so" \
	    "$CG_ROOT/examples/ruleset/hstring.c"
	run sh -c "CG_PLUGIN_PATH='$T/rs' '$T/root/usr/local/bin/cg-parse' -r hstring LR | '$T/root/usr/local/bin/cg-options' -t -P '$T/rs'"
	assert_success
	assert_output "$(printf 'LR\t0\tL')"
}

@test "installed man pages are lint-clean" {
	install_to
	run mandoc -Tlint -Wwarning "$T"/root/usr/local/share/man/man*/*
	assert_success
	assert_output ""
}

@test "make install writes cgtools.pc: a ruleset builds with pkg-config's flags and is found in its plugindir" {
	install_to
	[ -f "$T/root/usr/local/lib/pkgconfig/cgtools.pc" ]
	# pkg-config as it would run on the installed system (the sysroot
	# maps / to the DESTDIR tree)
	export PKG_CONFIG_SYSROOT_DIR="$T/root" PKG_CONFIG_LIBDIR="$T/root/usr/local/lib/pkgconfig"
	run pkg-config --cflags cgtools
	assert_success
	# (pkg-config ends the line with a blank)
	assert_output --regexp "^-I$T/root/usr/local/include *\$"
	run pkg-config --variable=plugindir cgtools
	assert_output "$T/root/usr/local/lib/cg/plugins"
	run pkg-config --modversion cgtools
	assert_output "$(cg cg-parse --version | awk '{print $NF}')"
	# the README's commands for an installed suite
	cd "$T"
	cc -std=c17 -fPIC -shared -fvisibility=hidden -Wl,-z,defs \
	    $(pkg-config --cflags cgtools) -o hstring.so "$CG_ROOT/examples/ruleset/hstring.c"
	cp hstring.so "$(pkg-config --variable=plugindir cgtools)"
	run sh -c "env -i '$T/root/usr/local/bin/cg-parse' -r hstring LLR | env -i '$T/root/usr/local/bin/cg-canon' -t"
	assert_success
	assert_output "$(printf 'LLR\t3/2')"
}

@test "make install PREFIX=... after a plain make rebuilds what names the plugin directory" {
	[ -z "${CG_SANITIZED:-}" ] || skip "relinks a build: the plain build only (the sanitizers' flags are make check-asan's)"
	# a copy of the build under test, which other tests go on using
	cp -a "$CG_BUILD" "$T/build"
	make_clean BUILD="$T/build"
	[ "$(cat "$T/build/.dirs")" = "plugindir=/usr/local/lib/cg/plugins" ]
	run make_clean BUILD="$T/build" PREFIX="$T/p" PLUGINDIR="$T/plug" install
	assert_success
	[ -f "$T/plug/nim.so" ] && [ ! -e "$T/p/lib/cg/plugins" ]
	# nothing next to the installed tools: they find the plugins through
	# the directory built into them
	run env -i "$T/p/bin/cg-parse" -l
	assert_success
	assert_line "$(printf 'nim\tNim: take any number of counters from one heap')"
	run env -i "$T/p/bin/cg-parse" -r nosuch 1
	assert_output --partial "(searched $T/plug;"
	refute_output --partial "/usr/local/lib/cg/plugins"
	# a plain make builds for the default directory again
	make_clean BUILD="$T/build"
	run env -i "$T/build/bin/cg-parse" -r nosuch 1
	assert_output --partial ":/usr/local/lib/cg/plugins;"
	# and one that changes nothing rebuilds nothing
	run make_clean BUILD="$T/build"
	assert_success
	assert_output ""
}

@test "pkg-config finds the cgtools.pc of a prefix outside its search path through PKG_CONFIG_PATH, as the README says" {
	install_to
	local pc="$T/root/usr/local/lib/pkgconfig"
	# not among the directories pkg-config searches by itself
	case ":$(pkg-config --variable pc_path pkg-config):" in
	*":$pc:"*) false ;;
	esac
	if ! env -u PKG_CONFIG_PATH pkg-config --exists cgtools; then
		run env -u PKG_CONFIG_PATH pkg-config --cflags cgtools
		assert_failure
	fi
	run env PKG_CONFIG_PATH="$pc" pkg-config --cflags cgtools
	assert_success
	assert_output --regexp "^-I/usr/local/include *\$"
	grep -q 'PKG_CONFIG_PATH=$HOME/cg/lib/pkgconfig' "$CG_ROOT/README.md"
	run sh -c "man -l '$CG_ROOT/man/man3/cg-ruleset.3' 2>/dev/null | col -b | tr -s ' \t\n' '   '"
	assert_output --partial "for another prefix, name the directory in PKG_CONFIG_PATH first"
}

@test "make uninstall removes everything install put, and the directories it left empty" {
	mkdir -p "$T/root/usr/local/bin"
	echo keep > "$T/root/usr/local/bin/other"
	install_to
	[ -f "$T/root/usr/local/include/cg/ruleset.h" ]
	run make_clean BUILD="$CG_BUILD" DESTDIR="$T/root" uninstall
	assert_success
	# what was there before stays; nothing else is left under the prefix
	run find "$T/root/usr/local" -mindepth 1
	assert_output "$(printf '%s\n' "$T/root/usr/local/bin" "$T/root/usr/local/bin/other")"
	rm "$T/root/usr/local/bin/other"
	install_to
	make_clean BUILD="$CG_BUILD" DESTDIR="$T/root" uninstall
	run find "$T/root/usr/local" -mindepth 1
	assert_output ""
}
