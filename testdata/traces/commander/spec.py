S = "/tmp/traces-work/commander/scripts"
NM = "/tmp/traces-work/commander/scripts/node_modules/"

def rw(proj, node_modules=None):
    r = []
    if node_modules:
        r.append((NM, node_modules))
    r.append((S, proj))
    return r

HEADER = "# commander traceback set: real output/traces from commander 11.1.0 scripts, paths rewritten; labelled after reading the pages.\n"
ITEMS = [
    dict(file="deploy", rw=rw("/home/ops/deploy-cli"),
         pre="$ ./deploy.js deplyo api",
         expect=["subcommands#no-subcommand", "errors-and-exit#error-codes-options", "how-to#typo-suggestions"]),
    dict(file="serve", rw=rw("/home/lena/devserver"),
         expect=["custom-processing#invalid-argument", "how-to#parse-numbers"]),
    dict(file="backup", rw=rw("/home/rhys/backup-tool"),
         pre="running `node backup.js --compress` prints this and exits 1:",
         expect=["option-settings#required-option", "errors-and-exit#error-codes-arguments"]),
    dict(file="copy", rw=rw("/home/tobias/code/cp2"),
         expect=["arguments#variadic-arguments", "troubleshooting#configuration-errors"]),
    dict(file="pm_install", rw=rw("/home/marisol/projects/pm"),
         expect=["troubleshooting#executable-not-found", "executable-subcommands#child-exit", "subcommands#command-method"]),
    dict(file="runner", rw=rw("/home/chen/work/taskrunner/packages/cli", "/home/chen/work/taskrunner/node_modules/"),
         expect=["exit-and-output#exit-override", "errors-and-exit#error-method"]),
    dict(file="resize", rw=rw("/home/ayo/imgtools"),
         pre="options is undefined in my action handler?",
         expect=["action-handlers#handler-parameters"]),
    dict(file="build", rw=rw("/home/kasia/site-builder"),
         pre="$ node build.js --minify build",
         expect=["troubleshooting#option-after-subcommand", "parsing-configuration#positional-options"]),
    dict(file="scaffold", rw=rw("/home/diego/create-app"),
         expect=["parsing-configuration#parse-from", "parsing-pipeline#prepare-user-args", "exit-and-output#testing"]),
    dict(file="gen_esm", rw=rw("/home/hiro/static-gen"),
         expect=["overview#exports", "overview#program-vs-new-command"]),
    # unanswerable
    dict(file="status", rw=rw("/home/ops/statuscli"),
         expect=[]),
    dict(file="config", rw=rw("/home/svea/mytool/packages/mytool", "/home/svea/mytool/node_modules/"),
         expect=[]),
    dict(file="suggest", rw=rw("/home/ben/helpbot"),
         pre="trying to reuse commander's did-you-mean helper:",
         expect=[]),
    dict(file="ls_packages", rw=rw("/home/priyanka/pkgls"),
         pre="`pkgls list --all | head -1` crashes:",
         expect=[]),
]
