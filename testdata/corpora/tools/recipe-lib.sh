# shellcheck shell=bash
# The shared plumbing of the corpora's recipe.sh scripts, sourced by each of them. A recipe
# rebuilds its corpus's bare repo.git from two published registry packages: it fetches each
# package (or takes it from a directory), checks its registry checksums, unpacks it with the top
# directory stripped, commits it with a fixed identity and date, tags it, checks the commit id
# and publishes a small bare repository. The recipe holds only its data (names, versions,
# checksums, dates, expected ids) and the steps specific to it.
#
# Deterministic: fixed author/committer, global and system git config ignored, TZ=UTC, LC_ALL=C,
# umask 022, no end-of-line conversion or filters whatever .gitattributes a package carries,
# every unpacked file committed (even one a package's .gitignore names), single-threaded packing.
#
# Functions report through RECIPE_FILE (the last fetched package) instead of stdout, so that a
# fetch failing stops the script under `set -e` and tool chatter never mixes into a path.

export GIT_AUTHOR_NAME="ontoly corpus" GIT_AUTHOR_EMAIL="corpus@ontoly.invalid"
export GIT_COMMITTER_NAME="ontoly corpus" GIT_COMMITTER_EMAIL="corpus@ontoly.invalid"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL=/dev/null TZ=UTC LC_ALL=C

g() { git -c commit.gpgsign=false -c core.autocrlf=false -c core.fileMode=true "$@"; }

die() {
    echo "recipe.sh: $*" >&2
    exit 1
}

# recipe_start OUT_DIR [PKG_DIR]: set RECIPE_OUT (absolute, so that `git -C` elsewhere still
# finds it), RECIPE_PKGS (may be empty: fetch everything), RECIPE_WORK (removed on exit) and
# RECIPE_TREE, a fresh repository on branch main.
recipe_start() {
    mkdir -p "$1"
    RECIPE_OUT=$(cd "$1" && pwd)
    RECIPE_PKGS=${2:-}
    RECIPE_WORK=$(mktemp -d)
    trap 'rm -rf "$RECIPE_WORK"' EXIT
    umask 022
    RECIPE_TREE=$RECIPE_WORK/tree
    g init -q -b main --template= "$RECIPE_TREE"
    mkdir -p "$RECIPE_TREE/.git/info"
    echo '* -text -filter -diff' > "$RECIPE_TREE/.git/info/attributes"
}

# from_pkgs FILE: set RECIPE_FILE to PKG_DIR/FILE and succeed if the recipe was given a
# directory that holds it.
from_pkgs() {
    RECIPE_FILE=$RECIPE_PKGS/$1
    [ -n "$RECIPE_PKGS" ] && [ -f "$RECIPE_FILE" ]
}

# fetch_sdist NAME VERSION FILE SHA256: a PyPI sdist, downloaded with pip (into PKG_DIR if the
# recipe was given one) when missing; its sha256 is the digest PyPI publishes.
fetch_sdist() {
    local dir=${RECIPE_PKGS:-$RECIPE_WORK/pip}
    RECIPE_FILE=$dir/$3
    if [ ! -f "$RECIPE_FILE" ]; then
        # pip prepares the sdist's metadata after downloading it, which needs its build backend
        # from PyPI as well; only the .tar.gz is kept.
        mkdir -p "$dir"
        python3 -m pip download --quiet --no-deps --no-binary :all: "$1==$2" -d "$dir"
        [ -f "$RECIPE_FILE" ] || die "pip download did not produce $3"
    fi
    echo "$4  $RECIPE_FILE" | sha256sum --check --quiet
}

# fetch_npm NAME VERSION SHA512_BASE64 SHA1: an npm tarball NAME-VERSION.tgz, downloaded with
# `npm pack` when PKG_DIR lacks it; the checksums are the registry's dist.integrity (sha512) and
# dist.shasum (sha1), as `npm view NAME@VERSION dist` prints them.
fetch_npm() {
    local name="$1-$2.tgz" sha512 sha1
    if ! from_pkgs "$name"; then
        mkdir -p "$RECIPE_WORK/npm"
        (cd "$RECIPE_WORK/npm" && npm pack --silent "$1@$2") >/dev/null
        RECIPE_FILE=$RECIPE_WORK/npm/$name
        [ -f "$RECIPE_FILE" ] || die "npm pack did not produce $name"
    fi
    sha512=$(openssl dgst -sha512 -binary "$RECIPE_FILE" | base64 -w0)
    sha1=$(sha1sum "$RECIPE_FILE" | cut -d' ' -f1)
    if [ "$sha512" != "$3" ] || [ "$sha1" != "$4" ]; then
        die "$RECIPE_FILE has sha512-$sha512 / sha1 $sha1, expected sha512-$3 / sha1 $4"
    fi
}

# fetch_crate NAME VERSION SHA256: a crates.io package NAME-VERSION.crate, fetched with
# `cargo fetch` through a throwaway manifest and taken from cargo's registry cache when PKG_DIR
# lacks it; the sha256 is the crates.io index checksum (also in any Cargo.lock).
fetch_crate() {
    local name="$1-$2.crate" proj cache sum
    if ! from_pkgs "$name"; then
        proj=$RECIPE_WORK/fetch-$2
        mkdir -p "$proj/src"
        : > "$proj/src/lib.rs"
        cat > "$proj/Cargo.toml" <<EOF
[package]
name = "fetch-$1"
version = "0.0.0"
edition = "2021"
publish = false

[dependencies]
$1 = "=$2"
EOF
        (cd "$proj" && cargo fetch -q) >&2
        cache=${CARGO_HOME:-$HOME/.cargo}/registry/cache
        RECIPE_FILE=$(find "$cache" -name "$name" -type f | head -n 1)
        [ -n "$RECIPE_FILE" ] || die "$name not found in $cache after cargo fetch"
    fi
    sum=$(sha256sum "$RECIPE_FILE" | cut -d' ' -f1)
    [ "$sum" = "$3" ] || die "$RECIPE_FILE has sha256 $sum, expected $3"
}

# fetch_crate_static NAME VERSION SHA256: as fetch_crate, but a package missing from PKG_DIR is
# downloaded from https://static.crates.io/crates/NAME/NAME-VERSION.crate (the file cargo itself
# downloads) instead of through a throwaway manifest, so that no other package is fetched and
# cargo's registry cache is left alone.
fetch_crate_static() {
    local name="$1-$2.crate" sum
    if ! from_pkgs "$name"; then
        mkdir -p "$RECIPE_WORK/crates"
        RECIPE_FILE=$RECIPE_WORK/crates/$name
        curl --fail --silent --show-error --location --proto '=https' \
            -o "$RECIPE_FILE" "https://static.crates.io/crates/$1/$name"
    fi
    sum=$(sha256sum "$RECIPE_FILE" | cut -d' ' -f1)
    [ "$sum" = "$3" ] || die "$RECIPE_FILE has sha256 $sum, expected $3"
}

# fetch_deb NAME VERSION FILE SHA256: a Debian binary package, taken from PKG_DIR or downloaded
# with `apt-get download NAME=VERSION` (which needs the machine's apt lists to still hold that
# version); its sha256 is the one the archive's Packages index lists for the file.
fetch_deb() {
    local sum
    if ! from_pkgs "$3"; then
        mkdir -p "$RECIPE_WORK/deb"
        (cd "$RECIPE_WORK/deb" && apt-get download -q "$1=$2") >&2
        RECIPE_FILE=$RECIPE_WORK/deb/$3
        [ -f "$RECIPE_FILE" ] || die "apt-get download did not produce $3"
    fi
    sum=$(sha256sum "$RECIPE_FILE" | cut -d' ' -f1)
    [ "$sum" = "$4" ] || die "$RECIPE_FILE has sha256 $sum, expected $4"
}

# pool_dir SOURCE: the directory of Debian's pool that holds the source package SOURCE (its first
# letter, or its first four for lib*).
pool_dir() {
    case $1 in
    lib*) printf 'pool/main/%s/%s' "${1:0:4}" "$1" ;;
    *) printf 'pool/main/%s/%s' "${1:0:1}" "$1" ;;
    esac
}

# fetch_orig SOURCE FILE SHA256: a Debian upstream (orig) tarball of the source package SOURCE,
# taken from PKG_DIR or downloaded from Debian's pool by its exact name; its sha256 is the one
# the archive's Sources index lists for the file.
fetch_orig() {
    local sum
    if ! from_pkgs "$2"; then
        mkdir -p "$RECIPE_WORK/orig"
        RECIPE_FILE=$RECIPE_WORK/orig/$2
        curl --fail --silent --show-error --location -o "$RECIPE_FILE" \
            "http://deb.debian.org/debian/$(pool_dir "$1")/$2"
    fi
    sum=$(sha256sum "$RECIPE_FILE" | cut -d' ' -f1)
    [ "$sum" = "$3" ] || die "$RECIPE_FILE has sha256 $sum, expected $3"
}

# unpack_deb_dir FILE DIR: replace the work tree's contents with the files under DIR (a path in
# the package, such as usr/share/gocode/src/github.com/spf13/viper) of the .deb FILE, DIR
# stripped. The data member is read with `ar` (binutils) so that dpkg is not needed.
unpack_deb_dir() {
    local data depth
    find "$RECIPE_TREE" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
    data=$(ar t "$1" | grep '^data\.tar') || die "$1 has no data member"
    # Members are written ./usr/...: the leading `.` is one more component to strip.
    depth=$(($(printf '%s' "$2" | tr -cd / | wc -c) + 2))
    # Written to a file, whose compression tar recognises by its contents (not from a pipe).
    ar p "$1" "$data" > "$RECIPE_WORK/$data"
    tar -xf "$RECIPE_WORK/$data" -C "$RECIPE_TREE" --strip-components="$depth" \
        --no-same-owner --no-same-permissions "./$2/"
}

# unpack FILE: replace the work tree's contents with the files of the .tar.gz FILE, its top
# directory (`NAME-VERSION/`, npm's `package/`) stripped.
unpack() {
    find "$RECIPE_TREE" -mindepth 1 -maxdepth 1 ! -name .git -exec rm -rf {} +
    tar -xzf "$1" -C "$RECIPE_TREE" --strip-components=1 --no-same-owner --no-same-permissions
}

# unpack_crate_at FILE DIR: put the files of the .crate FILE, its top directory (NAME-VERSION/)
# stripped, at DIR of the work tree, replacing what was there, for a tree that holds several
# packages side by side. cargo's packaging artefacts (.cargo_vcs_info.json, Cargo.toml.orig) are
# dropped and Cargo.toml stays the normalized manifest cargo published: the layout the toml
# corpus's pages were written against.
unpack_crate_at() {
    local dir=$RECIPE_TREE/$2
    rm -rf "$dir"
    mkdir -p "$dir"
    tar -xzf "$1" -C "$dir" --strip-components=1 --no-same-owner --no-same-permissions
    rm -f "$dir/.cargo_vcs_info.json" "$dir/Cargo.toml.orig"
}

# crate_as_upstream: make an unpacked crate look like the upstream repository - Cargo.toml is
# the manifest as the authors wrote it (Cargo.toml.orig), not cargo's normalized copy, and
# .cargo_vcs_info.json is dropped.
crate_as_upstream() {
    mv "$RECIPE_TREE/Cargo.toml.orig" "$RECIPE_TREE/Cargo.toml"
    rm -f "$RECIPE_TREE/.cargo_vcs_info.json"
}

# commit DATE MESSAGE [TAG...]: commit the whole work tree on main, authored and committed at
# DATE, and put the lightweight TAGs on it.
commit() {
    local date=$1 message=$2 tag
    shift 2
    g -C "$RECIPE_TREE" add -A -f .
    GIT_AUTHOR_DATE="$date" GIT_COMMITTER_DATE="$date" \
        g -C "$RECIPE_TREE" commit -q --no-verify -m "$message"
    for tag in "$@"; do
        g -C "$RECIPE_TREE" tag "$tag"
    done
}

# The commit messages of the three kinds of package, as the recipes have always written them.
# sdist_message LABEL VERSION FILE
sdist_message() {
    printf '%s %s as published on PyPI\n\n' "$1" "$2"
    printf 'The contents of %s (files.pythonhosted.org) without its top directory.' "$3"
}
# npm_message NAME VERSION
npm_message() {
    printf '%s %s as published on npm\n\n' "$1" "$2"
    printf 'The contents of %s-%s.tgz (registry.npmjs.org) without the package/ prefix.' "$1" "$2"
}
# crate_message NAME VERSION UPSTREAM_REPO UPSTREAM_COMMIT
crate_message() {
    printf '%s %s as published on crates.io\n\n' "$1" "$2"
    printf 'Upstream commit %s of %s (from the\n' "$4" "$3"
    printf "package's .cargo_vcs_info.json). Cargo.toml is the package's Cargo.toml.orig."
}

# The usual release of each kind: fetch, check, unpack, commit with the usual message, tag.
# sdist_release NAME LABEL VERSION FILE SHA256 DATE TAG...
sdist_release() {
    local name=$1 label=$2 version=$3 file=$4 sha256=$5 date=$6
    shift 6
    fetch_sdist "$name" "$version" "$file" "$sha256"
    unpack "$RECIPE_FILE"
    commit "$date" "$(sdist_message "$label" "$version" "$file")" "$@"
}
# orig_release SOURCE LABEL PROJECT VERSION SHA256 UPSTREAM_COMMIT DATE TAG...: SOURCE's orig
# tarball of VERSION, which is GitHub's archive of PROJECT's tag vVERSION: the upstream commit
# the archive records must be UPSTREAM_COMMIT.
orig_release() {
    local source=$1 label=$2 project=$3 version=$4 sha256=$5 upstream=$6 date=$7 file got
    shift 7
    file=${source}_$version.orig.tar.gz
    fetch_orig "$source" "$file" "$sha256"
    got=$(gzip -dc "$RECIPE_FILE" | git get-tar-commit-id) || true
    [ "$got" = "$upstream" ] || die "$file records upstream commit '$got', expected $upstream"
    unpack "$RECIPE_FILE"
    commit "$date" "$label $version as published (Debian's $file)

The contents of $file (deb.debian.org, $(pool_dir "$source"))
without its top directory: GitHub's archive of upstream commit
$upstream of $project (tag v$version)." "$@"
}
# npm_release NAME VERSION SHA512_BASE64 SHA1 DATE TAG...
npm_release() {
    local name=$1 version=$2 sha512=$3 sha1=$4 date=$5
    shift 5
    fetch_npm "$name" "$version" "$sha512" "$sha1"
    unpack "$RECIPE_FILE"
    commit "$date" "$(npm_message "$name" "$version")" "$@"
}
# crate_release NAME VERSION SHA256 DATE UPSTREAM_REPO UPSTREAM_COMMIT TAG...
crate_release() {
    fetch_crate "$1" "$2" "$3"
    crate_commit "$@"
}
# crate_static_release NAME VERSION SHA256 DATE REPO UPSTREAM TAG...: crate_release, the crate
# fetched from static.crates.io instead of through cargo.
crate_static_release() {
    fetch_crate_static "$1" "$2" "$3"
    crate_commit "$@"
}
# crate_commit NAME VERSION SHA256 DATE REPO UPSTREAM TAG...: the crate just fetched
# (RECIPE_FILE) unpacked as upstream and committed with the usual message.
crate_commit() {
    local name=$1 version=$2 date=$4 repo=$5 upstream=$6
    shift 6
    unpack "$RECIPE_FILE"
    crate_as_upstream
    commit "$date" "$(crate_message "$name" "$version" "$repo" "$upstream")" "$@"
}

# expect_commit REF EXPECTED DESCRIPTION [LABEL]: print `LABEL COMMIT (DESCRIPTION)` (LABEL
# defaults to REF) and stop unless REF is commit EXPECTED.
expect_commit() {
    local got
    got=$(g -C "$RECIPE_TREE" rev-parse "$1^{commit}")
    printf '%-5s %s (%s)\n' "${4:-$1}" "$got" "$3"
    [ "$got" = "$2" ] || die "$1 is commit $got, expected $2"
}

# publish repack|gc: write OUT_DIR/repo.git, replacing an existing one, as a small bare
# repository holding branch main and every tag: one pack, loose refs (so refs/ exists in a plain
# checkout of the repository that stores it), no hooks, logs, bitmaps or other files; then fsck.
# The two packings are the two the committed repositories were made with, kept apart because
# they give different pack bytes: `repack` is `repack -a -d -f --window=250 --depth=250`
# (the PyPI corpora), `gc` is `gc --aggressive` (window 250, depth gc.aggressiveDepth, 50:
# the npm and crates.io corpora).
publish() {
    local bare=$RECIPE_OUT/repo.git
    rm -rf "$bare"
    g init -q --bare -b main --template= "$bare"
    g -C "$RECIPE_TREE" push -q "$bare" main --tags
    case $1 in
    repack)
        g -C "$bare" -c pack.threads=1 -c repack.writeBitmaps=false \
            -c pack.writeReverseIndex=false repack -q -a -d -f --window=250 --depth=250
        ;;
    gc)
        g -C "$bare" -c pack.threads=1 -c repack.writeBitmaps=false \
            -c pack.writeReverseIndex=false -c gc.reflogExpire=now -c gc.pruneExpire=now \
            gc -q --aggressive
        ;;
    *) die "publish: unknown packing $1" ;;
    esac
    rm -rf "$bare/objects/info" "$bare/hooks" "$bare/logs" "$bare/info" "$bare/description" \
        "$bare/FETCH_HEAD"
    # gc packs the refs; write them back as loose files so the tree is plain files only.
    if [ -f "$bare/packed-refs" ]; then
        grep -v '^[#^]' "$bare/packed-refs" | while read -r sha ref; do
            mkdir -p "$(dirname "$bare/$ref")"
            printf '%s\n' "$sha" > "$bare/$ref"
        done
        rm -f "$bare/packed-refs"
    fi
    g -C "$bare" fsck --no-progress --no-dangling
    echo "wrote $bare ($(du -sh "$bare" | cut -f1))"
}
