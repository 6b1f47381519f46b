#!/usr/bin/env python3
"""Generate the viper knowledge workspace: ws/knowledge/ pages + ws/knowledge/structure.yaml.
Each section: (id, title, body, [(path, start, end), ...]).

The stop 52 walk's generator (its kb/gen.py), kept as it wrote the pages; only where it reads
the source (repo.git, made by recipe.sh) and where it writes (ws/) changed. Run from anywhere:
it rewrites the pages and structure.yaml byte for byte."""
import hashlib, json, os, subprocess, sys
HERE = os.path.dirname(os.path.abspath(__file__))
CLONE = os.path.join(HERE, "repo.git")
COMMIT = "f458e706cfde2a048fa304d9555f920c75d789b7"
V = "viper.go"

PAGES = []
def page(aid, path, title, desc, intro, sections):
    PAGES.append(dict(aid=aid, path=path, title=title, desc=desc, intro=intro, sections=sections))

# ---------------------------------------------------------------- precedence
page("precedence", "concepts/precedence.md", "Where a viper value comes from",
 "The lookup order of viper.Get: overrides, flags, env, config file, key/value store, defaults.",
 "Every `Get*` call walks the same layers in the same order. Most \"my value is wrong\" tickets end here.",
[
("lookup-order", "The lookup order", """
`(*Viper).Get` lower-cases the key and calls the internal `find`, which returns the first
non-nil value from, in order:

1. `Set()` overrides
2. bound pflags that the user actually **changed** on the command line
3. environment variables (`AutomaticEnv` and `BindEnv`)
4. the config file read by `ReadInConfig` / `ReadConfig` / merges
5. the remote key/value store (`ReadRemoteConfig`)
6. `SetDefault` defaults
7. last chance: the *default value* of a bound flag

The struct comment spells out the documented order and an example where an env var beats the
config file, which beats a default.
""", [(V, 184, 219), (V, 1166, 1183)]),
("override-layer", "Set() wins over everything", """
`viper.Set(key, value)` writes into the `override` map. `find` searches it first, so a value
set in code beats flags, env and file. Tests that call `Set` and then wonder why a changed env
var "does nothing" are hitting this. `Set` resolves aliases and lower-cases the key; nested keys
(`db.host`) create intermediate maps with `deepSearch`.
""", [(V, 1443, 1460), (V, 1184, 1191)]),
("flag-layer", "Flags only count when changed", """
A bound flag is consulted in layer 2 **only if `flag.HasChanged()`** is true, i.e. the user
passed it on the command line. An untouched flag does not shadow the env var or config file.
Its value string is converted according to `ValueType()`: ints via `cast.ToInt`, bools via
`cast.ToBool`, `stringSlice`/`stringArray` by stripping `[` `]` and reading CSV, `intSlice`
likewise, `stringToString` into a map. Everything else comes back as the raw string.
""", [(V, 1193, 1219)]),
("env-layer", "Environment variables in the chain", """
With `AutomaticEnv()` on, every `Get` looks for the env var named after the key (prefix applied,
upper-cased), even for keys that were never registered. Then explicit `BindEnv` bindings are
tried, in the order the names were given. An env var set to the empty string is skipped unless
`AllowEmptyEnv(true)`.
""", [(V, 1221, 1242)]),
("file-and-kv-layers", "Config file, then key/value store, then defaults", """
After env, `find` searches the config map with `searchIndexableWithPathPrefixes` (which can also
step into YAML/JSON lists by numeric index: `servers.0.host`), then the remote `kvstore`, then
`defaults`. A default is therefore the weakest source except for the flag default fallback.
""", [(V, 1244, 1269), (V, 636, 670)]),
("flag-default-fallback", "A flag's default is the very last resort", """
If nothing else produced a value and the key is bound to a flag, `Get` returns the flag's
*default* (converted by type, same switch as the changed-flag layer). `IsSet` calls `find` with
`flagDefault=false`, so a bound-but-unchanged flag with no other source makes `IsSet` return
false while `Get` returns the flag default.
""", [(V, 1271, 1300), (V, 1335, 1343)]),
("shadowing", "Nested keys are shadowed by a scalar parent", """
If a higher layer sets `db` to a scalar (say `Set("db", "off")`), then `Get("db.host")` returns
nil even though the config file has `db: {host: ...}`: the parent path is "shadowed". Each layer
checks this with `isPathShadowedInDeepMap` (maps) or `isPathShadowedInFlatMap` (flags, env
bindings), and `isPathShadowedInAutoEnv` for automatic env: an env var `DB` hides `db.host`.
""", [(V, 742, 790), (V, 792, 805)]),
])

# ---------------------------------------------------------------- reading files
page("reading-config", "howto/reading-config.md", "How to load a config file",
 "SetConfigName, AddConfigPath, SetConfigFile, SetConfigType, ReadInConfig, merging.",
 "How our services find and read their config file, and the knobs involved.",
[
("name-and-paths", "Name the file and tell viper where to look", """
The usual set-up is `SetConfigName("app")` (no extension) plus one or more `AddConfigPath(dir)`
calls, then `ReadInConfig()`. The default name is `config`. `SetConfigName` also clears any
explicit `SetConfigFile`. `AddConfigPath` ignores "" and duplicates and stores absolute paths.
""", [(V, 2064, 2073), (V, 516, 529), (V, 266, 284)]),
("search-order", "Which file wins when several exist", """
`findConfigFile` walks the config paths in the order they were added; in each directory it tries
`<name>.<ext>` for every extension in `SupportedExts` order (json, toml, yaml, yml, properties,
props, prop, hcl, tfvars, dotenv, env, ini). So `app.json` beats `app.yaml` in the same
directory, and the first directory added beats later ones. A file without extension named exactly
`<name>` is only considered when `SetConfigType` was called. Directories named like the file are
skipped (`exists` returns false for directories).
""", [("viper_go1_15.go", 14, 45), ("viper_go1_15.go", 47, 57), (V, 375, 376)]),
("explicit-file", "Point at one exact file", """
`SetConfigFile("/etc/app/config.yaml")` bypasses the search entirely; the extension of that
path decides the format unless `SetConfigType` is set. `getConfigFile` only searches when
`configFile` is empty, and caches the found path, so the search happens once.
""", [(V, 457, 465), (V, 2118, 2127)]),
("config-type", "How the format is chosen", """
`getConfigType` returns the `SetConfigType` value if set, otherwise the extension of the config
file (without the dot). A file called `app.conf` is therefore type `conf` and is rejected as
unsupported unless you call `SetConfigType("yaml")` (or whatever it really is).
`SetConfigType` is also how `ReadConfig(reader)` knows what it is reading.
""", [(V, 2099, 2116), (V, 2075, 2083)]),
("read-in-config", "What ReadInConfig does", """
`ReadInConfig` finds the file, checks the type against `SupportedExts`, reads it through the
afero filesystem, parses it into a **fresh** map and replaces the whole config layer. Keys that
were in a previous read and are not in the new file disappear. On any error the old config is
kept.
""", [(V, 1462, 1492)]),
("read-from-reader", "Reading config from a string, embed or bytes", """
`ReadConfig(io.Reader)` resets the config layer and parses the reader with the format from
`SetConfigType`. Use it for `//go:embed` defaults or tests:
`v.SetConfigType("yaml"); v.ReadConfig(bytes.NewBufferString(yamlText))`.
Without `SetConfigType` and without a config file, the type is empty and nothing is parsed:
the switch has no case for "" and the call returns nil with an empty config.
""", [(V, 1516, 1523), (V, 1632, 1642)]),
("merging", "Layering several files (base + overrides)", """
`MergeInConfig` reads the found file and merges it into the existing config instead of
replacing it; `MergeConfig(reader)` and `MergeConfigMap(map)` do the same from a reader or a
map. Typical pattern: `ReadInConfig` for `base.yaml`, then `SetConfigName("local")` and
`MergeInConfig`. Keys are lower-cased first; nested maps are merged recursively.
""", [(V, 1494, 1514), (V, 1525, 1547)]),
("home-expansion", "$HOME and env vars in config paths", """
`AddConfigPath("$HOME/.app")` works: `absPathify` replaces a leading `$HOME` with the user's
home directory (on Windows `HOMEDRIVE`+`HOMEPATH`, else `USERPROFILE`), then runs
`os.ExpandEnv`, so `$XDG_CONFIG_HOME/app` also works. Relative paths become absolute against the
process working directory at the time of the call.
""", [("util.go", 89, 110), ("util.go", 121, 130)]),
("formats", "Supported formats and what each parser does", """
YAML, JSON, TOML, HCL (also `.tfvars`) go through the codec registry; `dotenv`/`env` are parsed
with gotenv's strict parser into flat keys; Java `properties` keys are split on `.` into nested
maps; INI produces keys `section.key`. Everything is lower-cased afterwards by
`insensitiviseMap`.
""", [(V, 75, 111), (V, 1643, 1688)]),
("afero-fs", "Reading from an in-memory filesystem in tests", """
Viper reads and writes files through `afero.Fs`, by default the OS filesystem. In tests,
`v.SetFs(afero.NewMemMapFs())`, write the file into that fs, and `ReadInConfig` finds it there.
""", [(V, 2057, 2062), (V, 1477, 1481)]),
])

# ---------------------------------------------------------------- environment
page("environment", "howto/environment.md", "Configuring through environment variables",
 "BindEnv, SetEnvPrefix, AutomaticEnv, SetEnvKeyReplacer, AllowEmptyEnv.",
 "Our deployments inject most settings as environment variables. This page is how viper maps them.",
[
("bind-env", "BindEnv: one key, one or more variables", """
`BindEnv("port")` binds key `port` to `PORT` (or `MYAPP_PORT` with a prefix).
`BindEnv("port", "APP_PORT", "PORT")` binds to those exact names, tried in order, **without**
the prefix. The key is lower-cased; the env names are used exactly as given (env vars are case
sensitive). Calling `BindEnv()` with no arguments returns the error `missing key to bind to`.
""", [(V, 1133, 1155)]),
("env-prefix", "SetEnvPrefix", """
`SetEnvPrefix("myapp")` makes the derived name `MYAPP_<KEY>`: prefix, an underscore, the key,
all upper-cased. It applies to `AutomaticEnv` lookups and to one-argument `BindEnv`, not to
explicit names. An empty prefix is ignored (you cannot clear a prefix by passing "").
""", [(V, 467, 484)]),
("automatic-env", "AutomaticEnv", """
`AutomaticEnv()` only flips a flag; from then on every `Get(key)` checks the env var derived from
the key. It does **not** make `AllKeys`, `AllSettings` or `Unmarshal` see env-only keys: those
iterate over keys known from other layers, so a key that exists only in the environment is
invisible to `Unmarshal` unless it is also bound with `BindEnv` or has a default.
""", [(V, 1345, 1351), (V, 1953, 1974)]),
("key-replacer", "Dots and dashes in keys vs env var names", """
Key `db.host` with prefix `app` becomes `APP_DB.HOST`, which no shell can export. Call
`SetEnvKeyReplacer(strings.NewReplacer(".", "_", "-", "_"))` so the lookup uses `APP_DB_HOST`.
With `NewWithOptions` the same is `EnvKeyReplacer(r)`, which accepts any `StringReplacer`.
The replacer is applied in `getEnv`, i.e. after the prefix was added.
""", [(V, 1353, 1360), (V, 308, 319), (V, 499, 510)]),
("empty-env", "An exported but empty variable is ignored", """
`getEnv` treats `FOO=` as unset and falls through to the config file / default. If empty must
mean empty, call `AllowEmptyEnv(true)`. The default is false for backward compatibility.
""", [(V, 486, 510)]),
("env-types", "Env values are strings: slices and SetTypeByDefaultValue", """
Whatever comes from the environment is a `string`. `GetStringSlice` on `"a b c"` splits on
whitespace (cast), `Get` returns the string. `SetTypeByDefaultValue(true)` makes `Get` cast the
value to the type of the key's default (`[]string{}` default gives `[]string{"a","b","c"}`).
""", [(V, 807, 825), (V, 841, 886)]),
])

# ---------------------------------------------------------------- flags
page("flags", "howto/flags.md", "Binding command-line flags",
 "BindPFlag, BindPFlags, the FlagValue interface, flag type conversion.",
 "Most of our binaries use cobra/pflag; viper reads the flag values through bindings.",
[
("bind-pflag", "BindPFlag for one flag", """
`v.BindPFlag("server.port", cmd.Flags().Lookup("port"))` binds config key `server.port` to the
`--port` flag. Bind in `init()`/command setup; the value is read lazily on each `Get`, so
binding before `Execute()` parses is fine. A nil flag (a typo in `Lookup`) returns the error
`flag for "server.port" is nil`.
""", [(V, 1094, 1107), (V, 1122, 1131)]),
("bind-pflags", "BindPFlags for a whole flag set", """
`BindPFlags(fs)` binds every flag of the set under its long name as key. Note that
`BindFlagValues` ignores the error of an individual binding: it always returns nil.
""", [(V, 1086, 1092), (V, 1109, 1120)]),
("flagvalue-interface", "Binding non-pflag flags (stdlib flag, urfave/cli)", """
Viper only needs the `FlagValue` interface (`HasChanged`, `Name`, `ValueString`, `ValueType`)
and `FlagValueSet` (`VisitAll`). Wrap your own flag type and call `BindFlagValue` /
`BindFlagValues`. pflag is supported through the internal `pflagValue` adapter.
""", [("flags.go", 5, 18), ("flags.go", 20, 57)]),
("slice-flags", "Slice and map flags", """
For `stringSlice`/`stringArray`/`intSlice` flags viper takes `ValueString()` (like `[a,b]`),
strips the brackets and parses CSV, so values containing commas must be quoted.
`stringToString` flags (`--labels a=1,b=2`) become a `map[string]interface{}`; a pair without
`=` makes the whole value nil.
""", [(V, 1302, 1333)]),
("unchanged-flags", "Why my flag default beats my config file — or doesn't", """
A flag default is NOT a layer-2 value; only a changed flag is. So `--port` default 8080 and
`port: 9090` in the file gives 9090. Only when nothing sets the key does the flag default win.
If you instead see the flag default winning over the file, check that the key you read is the
same key you bound (`BindPFlag("port", ...)` vs reading `server.port`).
""", [(V, 1193, 1196), (V, 1271, 1275)]),
])

# ---------------------------------------------------------------- getters
page("getters", "reference/getters.md", "Reading values",
 "Get, typed getters, IsSet, InConfig, AllKeys, AllSettings, Sub, GetSizeInBytes.",
 "The read side of the API.",
[
("typed-getters", "GetString, GetInt, GetBool... never fail", """
Every typed getter is `cast.ToX(v.Get(key))`. A missing key or an unconvertible value returns
the zero value (`""`, `0`, `false`) with no error. There is no `GetIntE`. If you must distinguish
"unset" from "zero", use `IsSet` first, or `Get` and test for nil.
""", [(V, 906, 925), (V, 976, 995)]),
("get-any", "Get returns interface{}", """
`Get` returns whatever the layer stored: `int` from YAML, `float64` from JSON numbers, `string`
from env, `map[string]interface{}` for a table. Type assertions on the result are fragile; prefer
typed getters or `Unmarshal`. Keys are case-insensitive.
""", [(V, 832, 847)]),
("size-in-bytes", "GetSizeInBytes: \"10MB\", \"1gb\"", """
`GetSizeInBytes` accepts a number with optional `kb`/`mb`/`gb` (any case, the `b` is required,
binary multiples: 1 KB = 1024). `"10 MB"` works (spaces trimmed). Negative numbers become 0 and
overflow returns 0. A bare `"5"` is 5 bytes.
""", [(V, 1018, 1025), ("util.go", 132, 173)]),
("is-set", "IsSet vs InConfig", """
`IsSet(key)` is true when any layer except the flag default has a value, including defaults
(so a key with `SetDefault` is always "set"). `InConfig(key)` only looks at the config-file
layer (alias-aware). To ask "did the user configure this?", `InConfig` or checking env yourself
is the honest answer.
""", [(V, 1335, 1343), (V, 1412, 1423)]),
("all-keys", "Listing every key: AllKeys and AllSettings", """
`AllKeys` flattens aliases, overrides, flags, env bindings, config, kv store and defaults into
dotted keys, honouring shadowing; order is random (map iteration). `AllSettings` rebuilds a
nested map by calling `Get` for each key, so the values already follow precedence.
""", [(V, 1953, 2011), (V, 2035, 2055)]),
("sub", "Sub: a viper for one subtree", """
`v.Sub("db")` returns a new `*Viper` whose config layer is the map under `db`. It returns **nil**
when the key is missing or is not a map, so `v.Sub("db").GetString("host")` panics with a nil
pointer when `db` is absent. The sub-viper does not inherit env bindings, prefix, flags or
defaults of the parent: only the resolved map is copied.
""", [(V, 888, 904)]),
("maps-and-slices", "GetStringMap, GetStringMapString, GetStringSlice, GetIntSlice", """
Map getters use `cast.ToStringMap*`; a JSON string value is also accepted by cast. `GetIntSlice`
and `GetStringSlice` cast from `[]interface{}`. From env only a whitespace-separated string is
split by `GetStringSlice`, commas are not.
""", [(V, 983, 1016)]),
])

# ---------------------------------------------------------------- unmarshal
page("unmarshal", "howto/unmarshal.md", "Decoding config into structs",
 "Unmarshal, UnmarshalKey, UnmarshalExact, decode hooks, mapstructure tags.",
 "We decode config into typed structs at start-up.",
[
("unmarshal", "Unmarshal the whole config", """
`v.Unmarshal(&cfg)` decodes `AllSettings()` into `cfg` with mapstructure. Field names match
case-insensitively; use `mapstructure:"listen_addr"` tags for names with underscores (the
`yaml:`/`json:` tags are **not** used). Only keys known to `AllKeys` are included (see the
AutomaticEnv caveat).
""", [(V, 1036, 1044)]),
("unmarshal-key", "UnmarshalKey for one subtree", """
`v.UnmarshalKey("db", &dbCfg)` decodes just `Get("db")`. Same options and hooks as `Unmarshal`.
""", [(V, 1027, 1034)]),
("decoder-defaults", "Default decoder: weak typing, durations and comma lists", """
`defaultDecoderConfig` sets `WeaklyTypedInput: true` (so `"8080"` fills an `int`, `"true"` a
bool) and composes two hooks: `StringToTimeDurationHookFunc` (`"5s"` into `time.Duration`) and
`StringToSliceHookFunc(",")` (`"a,b"` into `[]string`). Metadata is off.
""", [(V, 1046, 1071)]),
("custom-hook", "Custom decode hooks and other mapstructure options", """
Pass `viper.DecodeHook(h)` to replace the hook chain. It **replaces** the defaults, so include
`StringToTimeDurationHookFunc()` yourself if you still want durations. Any
`func(*mapstructure.DecoderConfig)` is a `DecoderConfigOption` (e.g. set `TagName = "yaml"`).
""", [(V, 167, 182)]),
("unmarshal-exact", "UnmarshalExact: fail on unknown keys", """
`UnmarshalExact` sets `ErrorUnused = true`: a key present in the config without a matching struct
field makes decoding fail (mapstructure reports the invalid keys). Handy to catch typos in config
files, but any extra key from defaults or flags also trips it.
""", [(V, 1073, 1084)]),
])

# ---------------------------------------------------------------- writing
page("writing-config", "howto/writing-config.md", "Writing config back to disk",
 "WriteConfig, SafeWriteConfig, WriteConfigAs, SafeWriteConfigAs, file permissions.",
 "For CLIs that persist user settings.",
[
("write-variants", "The four write functions", """
`WriteConfig` overwrites the file found/set earlier. `WriteConfigAs(path)` writes to `path`,
overwriting. `SafeWriteConfig` writes `<first config path>/<name>.<type>` only if it does not
exist; `SafeWriteConfigAs(path)` likewise for a given path (returns `ConfigFileAlreadyExistsError`
if it exists).
""", [(V, 1549, 1586)]),
("what-is-written", "What ends up in the file", """
`marshalWriter` writes `AllSettings()`, i.e. the merged view of **all** layers (defaults, env,
flags, overrides), not just what came from the file. Secrets from env vars get persisted.
Comments and key order from the original YAML are lost; only `properties` files keep comments.
""", [(V, 1690, 1720)]),
("write-type", "How the output format is chosen", """
The extension of the target filename decides; with no extension the `SetConfigType` value is used;
if neither, `config type could not be determined for <file>`. `SafeWriteConfig` needs
`SetConfigType` because it builds the name from `configName + "." + configType`.
""", [(V, 1588, 1605), (V, 1560, 1568)]),
("permissions", "File mode of written config", """
New files are created with mode `0644` by default. `SetConfigPermissions(0600)` for files with
secrets. Only the permission bits are kept (`perm.Perm()`).
""", [(V, 2085, 2090), (V, 1609, 1616)]),
("env-ini-output", "dotenv and ini output", """
For `.env` output keys become `UPPER_CASE` with dots replaced by `_`, one `KEY=value` per line.
For `.ini`, the part before the last dot is the section; keys in section `default` go to the
unnamed section. A key with no dot at all makes `key[:lastSep]` run with `lastSep = -1`
and panic, so every key written to ini must have a section.
""", [(V, 1721, 1750)]),
])

# ---------------------------------------------------------------- watching
page("watching", "howto/watching.md", "Reloading config when the file changes",
 "WatchConfig, OnConfigChange, Kubernetes ConfigMaps, limits.",
 "Live reload of the config file with fsnotify.",
[
("watch-config", "WatchConfig and OnConfigChange", """
Call `ReadInConfig` first, then `OnConfigChange(func(e fsnotify.Event){...})` and `WatchConfig()`.
`WatchConfig` starts a goroutine that watches the **directory** of the config file (to survive
atomic saves/renames) and returns once the watcher is set up. On a write/create of the file it
calls `ReadInConfig` again and then your callback.
""", [(V, 381, 408), (V, 450, 455)]),
("k8s-configmap", "Kubernetes ConfigMap symlink swaps", """
ConfigMaps update by swapping a `..data` symlink. The watcher compares `EvalSymlinks` of the
file before/after each event; when the real path changed it reloads, even though the event was
not for the file itself.
""", [(V, 409, 434)]),
("watch-errors", "Errors while watching are only logged", """
A failed re-read is logged with `log.Printf("error reading config file: ...")` and your callback
is still called: the callback cannot tell success from failure except by inspecting values.
If there is no config file yet, `WatchConfig` logs `error: Config File ... Not Found` and returns
without watching. Failing to create the fsnotify watcher is `log.Fatal`: the process exits.
""", [(V, 388, 403), (V, 426, 434)]),
("watch-stops", "When the watch stops", """
Removing the config file ends the event loop; a watcher error also ends it. There is no
`StopWatch`. On js/wasm `newWatcher` returns `fsnotify is not supported on WASM`, which makes
`WatchConfig` exit via `log.Fatal`.
""", [(V, 435, 447), ("watch_wasm.go", 28, 30), ("watch.go", 10, 12)]),
])

# ---------------------------------------------------------------- remote
page("remote", "howto/remote.md", "Remote config: etcd, Consul, Firestore",
 "AddRemoteProvider, AddSecureRemoteProvider, ReadRemoteConfig, watching remote config.",
 "Some legacy services still read from Consul.",
[
("add-provider", "AddRemoteProvider", """
`AddRemoteProvider("consul", "localhost:8500", "/config/app.json")` registers a provider.
Supported names are `etcd`, `consul`, `firestore`; anything else returns
`UnsupportedRemoteProviderError`. Call `SetConfigType("json")` because the path extension is not
used to pick a format. Duplicates are ignored.
""", [(V, 531, 560), (V, 378, 379)]),
("secure-provider", "Encrypted values with a keyring", """
`AddSecureRemoteProvider(provider, endpoint, path, keyringPath)` adds a gpg secret keyring; the
`remote` package opens the keyring file and builds a crypt config manager that decrypts values.
""", [(V, 562, 594), ("remote/remote.go", 74, 107)]),
("blank-import", "Remote support needs a blank import", """
Remote features live in `github.com/spf13/viper/remote`; its `init()` sets `viper.RemoteConfig`.
Without `import _ "github.com/spf13/viper/remote"`, `ReadRemoteConfig` returns
`Remote Configurations Error: Enable the remote features by doing a blank import of the viper/remote package`.
""", [(V, 113, 120), ("remote/remote.go", 109, 111), (V, 1884, 1888)]),
("read-remote", "ReadRemoteConfig uses the first provider that answers", """
Providers are tried in the order added; the first one whose `Get` succeeds fills the kv store
layer, errors of the others are logged. If none answers: `Remote Configurations Error: No Files Found`.
""", [(V, 1867, 1873), (V, 1884, 1912)]),
("watch-remote", "Watching remote config", """
`WatchRemoteConfig` re-reads once (it is a poll you call in a loop). `WatchRemoteConfigOnChannel`
starts a goroutine per first provider that keeps unmarshalling responses into the kv store; it
has no quit channel and ignores response errors.
""", [(V, 1875, 1882), (V, 1914, 1951)]),
])

# ---------------------------------------------------------------- errors
page("errors", "reference/errors.md", "Error messages viper returns",
 "The exact strings of viper's errors, what causes each and what to do.",
 "Paste the error you got; find it here.",
[
("config-file-not-found", "Config File \"config\" Not Found in \"[...]\"", """
`ConfigFileNotFoundError` from `ReadInConfig`/`MergeInConfig`/`WriteConfig` when no
`<name>.<ext>` exists in any config path. Message: `Config File "app" Not Found in "[/etc/app /home/u/.app]"`.
Treat it as optional config with
`if _, ok := err.(viper.ConfigFileNotFoundError); ok { /* use defaults */ }`. Note it is a value
type: `errors.As(err, &viper.ConfigFileNotFoundError{})` needs a pointer to a value, not a pointer type.
""", [(V, 149, 157), ("viper_go1_15.go", 16, 26)]),
("unsupported-config-type", "Unsupported Config Type \"...\"", """
`UnsupportedConfigError`: the type from `SetConfigType` or the file extension is not in
`SupportedExts`. Typical: `Unsupported Config Type "conf"` for `app.conf`, or `""` when
`SetConfigFile` points to a file without extension. Fix with `SetConfigType`.
""", [(V, 122, 129), (V, 1473, 1475)]),
("parse-error", "While parsing config: ...", """
`ConfigParseError` wraps the underlying YAML/JSON/TOML/HCL/dotenv/properties/INI parser error,
e.g. `While parsing config: yaml: line 3: mapping values are not allowed in this context`.
The field `err` is unexported and there is no `Unwrap` in this version, so `errors.Is` cannot reach
the parser's error; match the type or the string.
""", [("util.go", 24, 32), (V, 1636, 1647)]),
("marshal-error", "While marshaling config: ...", """
`ConfigMarshalError` from the write functions when the encoder fails (e.g. a value YAML cannot
encode) or the write fails.
""", [(V, 53, 61), (V, 1693, 1703)]),
("already-exists", "Config File \"...\" Already Exists", """
`ConfigFileAlreadyExistsError` from `SafeWriteConfig`/`SafeWriteConfigAs`. Use `WriteConfigAs`
to overwrite deliberately.
""", [(V, 159, 165), (V, 1580, 1586)]),
("missing-config-path", "missing configuration for 'configPath'", """
`SafeWriteConfig` was called without any `AddConfigPath`. Add a path or use `SafeWriteConfigAs`.
""", [(V, 1563, 1567)]),
("remote-errors", "Remote Configurations Error / Unsupported Remote Provider Type", """
`RemoteConfigError` prefixes `Remote Configurations Error: `; `UnsupportedRemoteProviderError`
reads `Unsupported Remote Provider Type "zookeeper"`.
""", [(V, 131, 147)]),
("small-errors", "flag for \"x\" is nil, missing key to bind to, decoder not found", """
`flag for "port" is nil`: `BindPFlag`/`BindFlagValue` got a nil flag (wrong name in
`Flags().Lookup`). `missing key to bind to`: `BindEnv()` with no arguments.
`decoder not found for this format` / `decoder already registered for this format`: internal codec
registry errors, seen only if formats are registered twice or looked up wrongly.
""", [(V, 1102, 1105), (V, 1141, 1144), ("internal/encoding/decoder.go", 13, 19)]),
])

# ---------------------------------------------------------------- gotchas
page("gotchas", "gotchas/gotchas.md", "Viper gotchas our team hit",
 "Case-insensitive keys, global instance, concurrency, aliases, delimiters, logging.",
 "Collected from incident reviews and code review comments.",
[
("case-insensitive", "All keys are lower-cased", """
Every map read from a file is lower-cased by `insensitiviseMap`, and values passed to `Set` /
`SetDefault` by `toCaseInsensitiveValue`. `Get("MaxConns")` and `Get("maxconns")` are the same
key, and `AllSettings()` returns lower-case keys even when the YAML said `MaxConns`. If you need
case-preserving map keys (e.g. HTTP header names), read them as a list instead.
""", [("util.go", 34, 87)]),
("global-instance", "The package-level functions share one global Viper", """
`viper.GetString(...)` etc. act on a package-global `*Viper` created in `init()`. Libraries that
also use the global instance will see and overwrite your keys. Prefer `viper.New()` and pass the
instance around; `viper.GetViper()` returns the global. `viper.Reset()` (meant for tests) replaces
the global and restores `SupportedExts` and `SupportedRemoteProviders`.
""", [(V, 63, 63), (V, 827, 830), (V, 332, 339)]),
("concurrency", "Not safe for concurrent Get and Set", """
The `Viper` struct holds plain maps without a mutex; the doc comment says Vipers are not safe for
concurrent `Get()`/`Set()`. `WatchConfig` reloading while handlers call `Get` is a data race too
(`ReadInConfig` swaps `v.config`). Copy the values you need into your own struct under your own
lock, e.g. in `OnConfigChange`.
""", [(V, 219, 264)]),
("aliases", "RegisterAlias moves values", """
`RegisterAlias("loglevel", "log.level")` makes both names read the same value. If the alias name
already had a value in config/kvstore/defaults/overrides, that value is **moved** to the real key.
An alias pointing to itself (directly or via a chain) is refused with the warning
`creating circular reference alias`.
""", [(V, 1362, 1410)]),
("key-delimiter", "Keys that contain dots", """
`.` separates nested keys. A map key with a dot in it (`"example.com": {...}`) cannot be reached
directly with the default delimiter. Create the instance with
`viper.NewWithOptions(viper.KeyDelimiter("::"))` and use `a::b` paths.
""", [(V, 300, 306), (V, 321, 330)]),
("merge-type-mismatch", "Merging a map over a scalar is silently skipped", """
When `MergeConfig`/`MergeInConfig` find the same key with a different type in both (e.g. `db: ""`
in the base and `db: {host: x}` in the override) the key is **skipped** and only an error is logged
(`svType != tvType`). The base value stays. Check logs if an override file "does nothing".
""", [(V, 1796, 1836)]),
("logging", "Seeing viper's own logs", """
Viper logs through an internal `Logger` interface implemented on top of jwalterweatherman
(`jww`). In this version there is no public setter for the logger; raise jww's threshold
(`jww.SetStdoutThreshold(jww.LevelDebug)`) to see "searching for config in paths" and friends.
`v.Debug()` prints every layer's map to stdout.
""", [("logger.go", 9, 63), (V, 2129, 2141)]),
])

# ------------------------------------------------------------------------- writer
def digest(path, s, e):
    data = subprocess.run(["git", "-C", CLONE, "show", f"{COMMIT}:{path}"], capture_output=True, check=True).stdout.decode()
    lines = data.split("\n")
    if e > len(lines) or (e == len(lines) and lines[-1] == "" ):
        sys.exit(f"range out of bounds {path}:{s}-{e}")
    sel = [l.rstrip("\r") for l in lines[s-1:e]]
    return "sha256:" + hashlib.sha256("\n".join(sel).encode()).hexdigest()

out = ["schema_version: context.approved-structure.v1", "articles:"]
nsec = nref = 0
for p in PAGES:
    md = ["---", "title: " + json.dumps(p['title']), "description: " + json.dumps(p['desc']), "---", f"# {p['title']}", "", p['intro'], ""]
    out += [f"  - article_id: {p['aid']}", f"    path: {p['path']}", f"    collection: {p['path'].split('/')[0]}", "    visibility: internal", "    sections:"]
    for sid, title, body, refs in p['sections']:
        nsec += 1
        md += [f'<!-- context:section id="{sid}" -->', f"## {title}", "", body.strip(), "", "<!-- /context:section -->", ""]
        out += [f"      - id: {sid}", "        references:"]
        assert 1 <= len(refs) <= 3
        for path, s, e in refs:
            nref += 1
            out += ["          - source_ref: repo:spf13/viper",
                    f"            locator: {{path: {path}, start_line: {s}, end_line: {e}}}",
                    f"            content_digest: {digest(path, s, e)}"]
    fp = os.path.join(HERE, "ws", "knowledge", p['path'])
    os.makedirs(os.path.dirname(fp), exist_ok=True)
    open(fp, "w").write("\n".join(md))
open(os.path.join(HERE, "ws", "knowledge", "structure.yaml"), "w").write("\n".join(out) + "\n")
print(f"pages={len(PAGES)} sections={nsec} references={nref}")
