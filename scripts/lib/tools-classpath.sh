# Sourced by the scripts that run a class of the tools module (scripts/replay, scripts/cat-decode): sets
# tools_cp to tools/target/classes plus its runtime dependencies, building them first when missing or stale.
# The classpath names the reactor's own classes (cat-wire/target/classes), never an installed cat-wire jar that
# may be older than this checkout; compile and classpath run in one reactor so that resolution sees them.
# The phase is test-compile (with tests skipped), not compile: dependency:build-classpath resolves the test scope
# too, and Maven's reactor hands a module's test-jar (cat-wire's, a test dependency of tools) to a build that
# reaches test-compile only; after compile alone it looks in the local repository, where on a fresh clone there is
# none ("Could not find artifact io.cheetah:cat-wire:jar:tests").
# Usage: root=<checkout>; main_class=<a class file under tools/target/classes>; source scripts/lib/tools-classpath.sh
tools_classes="$root/tools/target/classes"
tools_cpfile="$root/tools/target/tools.classpath"
if [[ ! -f "$tools_classes/$main_class" || ! -s "$tools_cpfile" || "$root/tools/pom.xml" -nt "$tools_cpfile" ]] \
   || grep -q "/io/cheetah/" "$tools_cpfile" \
   || [[ -n "$(find "$root/tools/src/main" "$root/cat-wire/src/main" -newer "$tools_cpfile" -print -quit 2>/dev/null)" ]]; then
  build=(test-compile -Dmaven.test.skip=true dependency:build-classpath -pl tools -am -DincludeScope=runtime
         "-Dmdep.outputFile=$tools_cpfile")
  (cd "$root" && { mvn -q -B -o "${build[@]}" >/dev/null 2>&1 || mvn -q -B "${build[@]}"; }) >&2
fi
tools_cp="$tools_classes:$(cat "$tools_cpfile")"
