#!/usr/bin/env bats
# cg-plot: thermograph annotations drawn as SVG.  The coordinates below are
# derived by hand from the thermographs (Winning Ways ch. 6: a thermograph's
# walls are the cooled options' scaffolds) and the layout of cg-plot(1).
load common

setup() {
	T=$(mktemp -d)
}

teardown() {
	rm -rf "$T"
}

# xpath EXPR FILE: the string value of EXPR in an SVG file (namespaces
# ignored: SVG elements matched by local name)
xpath() {
	xmllint --xpath "$1" "$2"
}

@test "--help, --version, usage errors" {
	run cg cg-plot --help
	assert_success
	assert_output --partial "usage: cg-plot"
	run cg cg-plot --version
	assert_success
	run cg cg-plot --bogus
	[ "$status" -eq 2 ]
}

@test "{2|-1}: walls, mast, mean and temperature where a hand derivation puts them" {
	# Left's scaffold is 2 - t (Left's option 2 cooled by t), Right's is
	# -1 + t; they meet at t = 3/2, value 1/2: temperature 3/2, mean 1/2,
	# the walls reach 2 and -1 at temperature 0.
	# Layout (cg-plot(1)): temperatures 0 to 4/3 * 3/2 = 2, values -1 to
	# 2; scale min(480/3, 320/2) = 160 pixels per unit;
	# x = 40 + (2 - v) 160, y = 40 + (2 - t) 160.
	#   mast top (1/2, 2) -> (280, 40); where the walls part (1/2, 3/2)
	#   -> (280, 120); left wall at 0: (2, 0) -> (40, 360), then a 12-pixel
	#   tail of slope -1 -> (28, 372); right wall: (-1, 0) -> (520, 360),
	#   tail (532, 372).
	cg-parse -r game '{2|-1}' | cg-canon -p thermograph | cg-plot > "$T/t.svg"
	run xmllint --noout "$T/t.svg"
	assert_success
	run xpath "count(//*[local-name()='g'][@class='thermograph'])" "$T/t.svg"
	assert_output 1
	run xpath "string(//*[@class='left-wall']/@points)" "$T/t.svg"
	assert_output "280,40 280,120 40,360 28,372"
	run xpath "string(//*[@class='right-wall']/@points)" "$T/t.svg"
	assert_output "280,40 280,120 520,360 532,372"
	# the mast's hook at its top, the mean and temperature marked
	run xpath "string(//*[@class='hook']/@points)" "$T/t.svg"
	assert_output "275,45 280,40 285,45"
	run xpath "concat(//*[@class='mean-temperature']/@cx, ',', //*[@class='mean-temperature']/@cy)" "$T/t.svg"
	assert_output "280,120"
	run xpath "concat(//*[@class='mean-guide']/@x2, ',', //*[@class='mean-guide']/@y2)" "$T/t.svg"
	assert_output "280,360"
	# the temperature axis at value 0: x = 40 + 2 * 160 = 360
	run xpath "string(//*[@class='temperature-axis']/@x1)" "$T/t.svg"
	assert_output 360
	run xpath "concat(//*[@class='temperature-guide']/@x2, ',', //*[@class='temperature-guide']/@y2)" "$T/t.svg"
	assert_output "360,120"
	# axes labelled: titles, and the mean, the stops and the temperature
	for l in temperature value; do
		run xpath "count(//*[@class='axis-label'][.='$l'])" "$T/t.svg"
		assert_output 1
	done
	for l in 1/2 2 -1; do
		run xpath "count(//*[@class='value-label'][.='$l'])" "$T/t.svg"
		assert_output 1
	done
	run xpath "count(//*[@class='temperature-label'][.='3/2'])" "$T/t.svg"
	assert_output 1
	run xpath "string(//*[@class='legend'])" "$T/t.svg"
	assert_output "{2|-1}   mean 1/2, temperature 3/2"
}

@test "several roots on one chart, moved apart, in CGSuite's colours" {
	# {3|1}: mean 2, temperature 1, walls at 3 and 1 at temperature 0.
	# With {2|-1}: temperatures 0 to 2, values -1 to 3; scale
	# min(480/4, 320/2) = 120; the view grows upwards to 320/120 = 8/3:
	# x = 40 + (3 - v) 120, y = 40 + (8/3 - t) 120.  {2|-1} parts at
	# (1/2, 3/2) -> (340, 180); {3|1}, the second, is drawn 2 pixels to
	# the left: (2, 1) -> (160 - 2, 240) = (158, 240), its left wall at 0
	# (3, 0) -> (38, 360).
	cg-parse -r game '{2|-1}' '{3|1}' | cg-canon -p canon,thermograph |
	    cg-plot > "$T/t.svg"
	run xmllint --noout "$T/t.svg"
	assert_success
	run xpath "count(//*[local-name()='g'][@class='thermograph'])" "$T/t.svg"
	assert_output 2
	run xpath "string(//*[local-name()='g'][@class='thermograph'][1]/@stroke)" "$T/t.svg"
	assert_output black
	run xpath "string(//*[local-name()='g'][@class='thermograph'][2]/@stroke)" "$T/t.svg"
	assert_output blue
	run xpath "concat(//*[local-name()='g'][@class='thermograph'][1]/*[@class='mean-temperature']/@cx, ',', //*[local-name()='g'][@class='thermograph'][1]/*[@class='mean-temperature']/@cy)" "$T/t.svg"
	assert_output "340,180"
	run xpath "concat(//*[local-name()='g'][@class='thermograph'][2]/*[@class='mean-temperature']/@cx, ',', //*[local-name()='g'][@class='thermograph'][2]/*[@class='mean-temperature']/@cy)" "$T/t.svg"
	assert_output "158,240"
	run xpath "string(//*[local-name()='g'][@class='thermograph'][2]/*[@class='left-wall']/@points)" "$T/t.svg"
	assert_output "158,40 158,240 38,360 26,372"
	run xpath "count(//*[@class='legend'])" "$T/t.svg"
	assert_output 2
}

@test "a label shows the canonical form when it differs from the position" {
	cg-parse -r domineering '...|...' | cg-canon -p canon,thermograph |
	    cg-plot > "$T/t.svg"
	run xpath "string(//*[@class='legend'])" "$T/t.svg"
	assert_output --partial "...|... = {2|-1/2}"
}

@test "--subzero: walls down to temperature -1, no tail" {
	# 1/2 = {0|1}: Thermograph(1/2,[-1/2],[0,-1],1/2,[-1/2],[0,1]): the
	# mast down to -1/2, then the walls to 1 and 0 at -1.  Temperatures
	# -1 to 1/3 (the top is 1/3 above 0 when no temperature is positive),
	# values 0 to 1: scale min(480/1, 320/(4/3)) = 240; the view grows
	# sideways by (480/240 - 1)/2 = 1/2 each way, to -1/2 .. 3/2:
	# x = 40 + (3/2 - v) 240, y = 40 + (1/3 - t) 240.
	#   (1/2, 1/3) -> (280, 40); (1/2, -1/2) -> (280, 240);
	#   left wall (1, -1) -> (160, 360), right (0, -1) -> (400, 360).
	cg-parse -r game '1/2' | cg-canon -p thermograph | cg-plot -z > "$T/t.svg"
	run xpath "string(//*[@class='left-wall']/@points)" "$T/t.svg"
	assert_output "280,40 280,240 160,360"
	run xpath "string(//*[@class='right-wall']/@points)" "$T/t.svg"
	assert_output "280,40 280,240 400,360"
}

@test "the SVG renders (rsvg-convert)" {
	cg-parse -r game '{3||2*|1*}' '^' '{1|-1}+{2|-2}' | cg-canon -p thermograph |
	    cg-plot > "$T/t.svg"
	run rsvg-convert -o "$T/t.png" "$T/t.svg"
	assert_success
	[ -s "$T/t.png" ]
}

@test "no thermograph, a bad one: exit 1 with the file and line" {
	run sh -c 'cg-parse -r nim 1 | cg-canon | cg-plot'
	[ "$status" -eq 1 ]
	assert_output "cg-plot: no thermograph in the input (cg-canon -p thermograph writes them)"
	printf 'cgt\t1\nN\t1\nA\t1\tthermograph\tThermograph(0,[1],[0],0,[],[0])\nroot\t1\nend\n' > "$T/bad"
	run cg cg-plot "$T/bad"
	[ "$status" -eq 1 ]
	assert_output "cg-plot: $T/bad:2: bad thermograph 'Thermograph(0,[1],[0],0,[],[0])': 1 slopes for 1 critical temperatures (one more is needed)"
	printf 'cgt\t1\nN\t1\nA\t1\tthermograph\tThermograph(0,[1],[0,-1],1,[1],[0,1])\nroot\t1\nend\n' > "$T/bad"
	run cg cg-plot "$T/bad"
	[ "$status" -eq 1 ]
	assert_output --partial "the two walls have different masts"
	run cg cg-plot "$T/none"
	[ "$status" -eq 1 ]
}

@test "output errors, | head" {
	cg-parse -r game '{2|-1}' | cg-canon -p thermograph > "$T/d"
	run sh -c "$CG_BUILD/bin/cg-plot '$T/d' > /dev/full"
	[ "$status" -eq 1 ]
	assert_output "cg-plot: standard output: No space left on device"
	run sh -c "$CG_BUILD/bin/cg-plot '$T/d' | head -n1"
	assert_success
	assert_output '<?xml version="1.0" encoding="UTF-8"?>'
}
