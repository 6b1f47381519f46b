#!/usr/bin/env python3
"""Writes the demo's knowledge/structure.yaml and sources/repo/index.yaml from the bare repos.

References are declared below by anchor (a unique line of text in the cited file at the cited
commit) instead of by line numbers, so editing the recipe only needs a re-run. The script
resolves each anchor to a line range (the whole definition: braces, or Python indentation,
optionally with its doc comment), reads the cited lines with `git show <commit>:<path>`, and
writes the sha256 digest the format defines. Sections come from the pages' markers, in page
order; a section without a declaration here (or the reverse) is an error.

The demo is clean: `ontoly validate` reports nothing, so its CI passes out of the box (the
deliberate errors it once had live in fixtures: testdata/fixtures and the verification tests'
recipe repository). faq/troubleshooting.md#double-charge cites a `note:` source.

Usage: make-structure.py [--check]   (--check: fail if the files on disk differ)
"""

import hashlib
import os
import re
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
KNOWLEDGE = os.path.join(HERE, "knowledge")
REMOTE = "https://github.com/acme/{}"

# name -> (repository under repos/, commit-ish to cite, registry ref: None = that full commit)
MODULES = {
    "shop-api": ("shop-api", "main", None),
    "shop-api-legacy": ("shop-api", "main~3", None),
    "shop-worker": ("shop-worker", "main", None),
    "shop-worker-legacy": ("shop-worker", "main~2", None),
    "shop-web": ("shop-web", "main", None),
    "shop-cli": ("shop-cli", "main", None),
    "shop-sdk": ("shop-sdk", "main", None),
}

J = "src/main/java/com/acme/shop/"


def R(module, path, anchor, **opts):
    return dict(module=module, path=path, anchor=anchor, **opts)


NOTE = "note:20260310/double-charge-incident.md"

# (page, section id) -> references, at most 3 each.
REFS = {
    ("architecture/overview.md", "components"): [
        R("shop-api", "src/main.rs", "pub fn route(", doc=True),
        R("shop-worker", "worker/main.py", "HANDLERS = {"),
        R("shop-cli", "cmd/shopctl/main.go", "func usage() {"),
    ],
    ("architecture/overview.md", "request-flow"): [
        R("shop-web", "src/api/client.ts", "checkout(lines: CheckoutLine[])", doc=True),
        R("shop-api", "src/main.rs", '("POST", "/v1/checkout") =>'),
        R("shop-api", "src/checkout.rs", "pub fn checkout(&mut self", doc=True),
    ],
    ("architecture/overview.md", "configuration"): [
        R("shop-api", "src/config.rs", "pub fn from_env() -> Self", doc=True),
        R("shop-api", "src/config.rs", "fn parse_or<T", doc=True),
        R("shop-api", "README.md", "## Configuration", end="| `SHOP_RESERVATION_TTL`"),
    ],
    ("architecture/overview.md", "money"): [
        R("shop-web", "src/format/money.ts", "export function formatMoney(", doc=True),
        R("shop-worker", "worker/jobs/receipts.py", "def format_total("),
        R("shop-sdk", J + "model/Order.java", "public long totalCents()"),
    ],
    ("architecture/overview.md", "history"): [
        R("shop-api-legacy", "src/payment.rs", "pub fn charge_once(", doc=True),
        R("shop-api-legacy", "src/main.rs", "pub fn route(", doc=True),
    ],
    ("guides/checkout.md", "order-flow"): [
        R("shop-api", "src/checkout.rs", "pub fn checkout(&mut self", doc=True),
    ],
    ("guides/checkout.md", "cart-format"): [
        R("shop-api", "src/checkout.rs", "pub fn parse_cart(", doc=True),
        R("shop-web", "src/api/client.ts", "checkout(lines: CheckoutLine[])", doc=True),
    ],
    ("guides/checkout.md", "payment-retry"): [
        R("shop-api", "src/checkout.rs", "pub fn charge_with_retry(", doc=True),
        R("shop-api", "src/checkout.rs", "pub enum ChargeOutcome {", doc=True),
        R("shop-api", "src/config.rs", "/// How many times a soft-declined",
          end="pub payment_backoff: Duration,"),
    ],
    ("guides/checkout.md", "idempotency"): [
        R("shop-api", "src/checkout.rs", "pub fn idempotency_key(", doc=True),
        R("shop-api", "src/checkout.rs", "/// Every attempt sends the same idempotency key",
          end="let key = idempotency_key("),
    ],
    ("guides/checkout.md", "error-responses"): [
        R("shop-api", "src/main.rs", "pub fn route(", doc=True),
    ],
    ("guides/inventory.md", "reservations"): [
        R("shop-api", "src/inventory.rs", "pub fn reserve(", doc=True),
        R("shop-api", "src/inventory.rs", "struct Reservation {"),
    ],
    ("guides/inventory.md", "commit-release"): [
        R("shop-api", "src/inventory.rs", "pub fn commit(", doc=True),
        R("shop-api", "src/inventory.rs", "pub fn release(", doc=True),
        R("shop-api", "src/checkout.rs", "match self.charge_with_retry(total) {"),
    ],
    ("guides/inventory.md", "expiry"): [
        R("shop-api", "src/inventory.rs", "pub fn expire_stale(", doc=True),
        R("shop-api", "src/config.rs", "/// Seconds an inventory reservation is held",
          end="pub reservation_ttl_secs: u64,"),
    ],
    ("guides/worker-jobs.md", "job-queue"): [
        R("shop-worker", "worker/queue.py", "class JobQueue:", end="return job, raw"),
        R("shop-worker", "worker/queue.py", "def ack(self, raw):"),
    ],
    ("guides/worker-jobs.md", "retries-dead-letter"): [
        R("shop-worker", "worker/queue.py", "def fail(self, job, raw, error):"),
        R("shop-worker", "worker/queue.py", "def requeue_dead(self"),
        R("shop-worker", "worker/main.py", "if handler is None:"),
    ],
    ("guides/worker-jobs.md", "receipt-emails"): [
        R("shop-worker", "worker/jobs/receipts.py", "def send_receipt("),
        R("shop-worker", "worker/jobs/receipts.py", "RECEIPT_TEMPLATE = Template("),
    ],
    ("guides/worker-jobs.md", "reconciliation"): [
        R("shop-worker", "worker/jobs/reconcile.py", "def run_nightly("),
        R("shop-worker", "worker/jobs/reconcile.py", "def reconcile("),
        R("shop-worker", "worker/jobs/reconcile.py", "def parse_settlement("),
    ],
    ("guides/worker-jobs.md", "shutdown"): [
        R("shop-worker", "worker/main.py", "def stop(self, *_):"),
        R("shop-worker", "worker/main.py", "def run(self):"),
    ],
    ("guides/worker-jobs.md", "legacy-retry"): [
        R("shop-worker-legacy", "worker/queue.py", "def fail(self, job, raw, error):"),
        R("shop-worker-legacy", "worker/queue.py", "def pop(self, timeout=5):"),
    ],
    ("guides/web-client.md", "api-client"): [
        R("shop-web", "src/api/client.ts", "async request<T>(", doc=True),
        R("shop-web", "src/api/client.ts", "export class ApiError extends Error {"),
    ],
    ("guides/web-client.md", "token-refresh"): [
        R("shop-web", "src/api/client.ts", "private refresh(): Promise<boolean>", doc=True),
        R("shop-web", "src/api/client.ts", "private async doRefresh()"),
    ],
    ("guides/web-client.md", "cart-state"): [
        R("shop-web", "src/cart/cart.ts", "add(line: CartLine): void", doc=True),
        R("shop-web", "src/cart/cart.ts", "private static load(storage"),
        R("shop-web", "src/cart/cart.ts", 'const STORAGE_KEY = "acme.cart.v2";', lines=2),
    ],
    ("guides/web-client.md", "money-formatting"): [
        R("shop-web", "src/format/money.ts", "export function formatMoney(", doc=True),
        R("shop-web", "src/format/money.ts", "export function parseMoney(", doc=True),
    ],
    ("guides/web-client.md", "bundle-size"): [
        R("shop-web", "scripts/check-bundle-size.js", "function main(argv) {"),
        R("shop-web", "package.json", '"scripts": {'),
    ],
    ("guides/shopctl.md", "commands"): [
        R("shop-cli", "cmd/shopctl/main.go", "func usage() {"),
        R("shop-cli", "cmd/shopctl/main.go", "func runList("),
    ],
    ("guides/shopctl.md", "config-file"): [
        R("shop-cli", "internal/config/config.go", "func Load(path string)", doc=True),
        R("shop-cli", "internal/config/config.go", "func Path() string", doc=True),
    ],
    ("guides/shopctl.md", "cancel-orders"): [
        R("shop-cli", "cmd/shopctl/main.go", "func runCancel(", doc=True),
        R("shop-cli", "internal/orders/orders.go", "func (c *Client) Cancel(", doc=True),
    ],
    ("guides/java-sdk.md", "client-setup"): [
        R("shop-sdk", J + "ShopClient.java", "public static final class Builder {", doc=True),
        R("shop-sdk", J + "ShopClient.java", "public Optional<Order> getOrder(", doc=True),
    ],
    ("guides/java-sdk.md", "retry-policy"): [
        R("shop-sdk", J + "RetryPolicy.java", "public final class RetryPolicy {", doc=True,
          end="public static RetryPolicy defaults() {", extra=2),
        R("shop-sdk", J + "RetryPolicy.java", "public Duration delayBefore(", doc=True),
        R("shop-sdk", J + "ShopClient.java", "HttpResponse<String> send(", doc=True),
    ],
    ("guides/java-sdk.md", "order-model"): [
        R("shop-sdk", J + "model/Order.java", "public static Order fromJson(", doc=True),
        R("shop-sdk", J + "model/Order.java", "public static final class LineItem {", doc=True),
        R("shop-sdk", J + "model/Order.java", "public boolean isCancellable()", doc=True),
    ],
    ("faq/troubleshooting.md", "payment-declined"): [
        R("shop-api", "src/main.rs", "Err(CheckoutError::PaymentDeclined { attempts })", lines=4),
        R("shop-api", "src/checkout.rs", "pub enum ChargeOutcome {", doc=True),
    ],
    ("faq/troubleshooting.md", "stock-unavailable"): [
        R("shop-api", "src/inventory.rs", "pub fn expire_stale(", doc=True),
    ],
    ("faq/troubleshooting.md", "double-charge"): [
        dict(note=NOTE, anchor="## Cause", end="pending charge shown by some banks"),
        R("shop-api", "src/checkout.rs", "pub fn idempotency_key(", doc=True),
    ],
    ("faq/troubleshooting.md", "logged-out"): [
        R("shop-web", "src/api/client.ts", "private async doRefresh()"),
    ],
    ("faq/troubleshooting.md", "missing-receipt"): [
        R("shop-worker", "worker/queue.py", "def requeue_dead(self"),
        R("shop-worker", "worker/jobs/receipts.py", "def send_receipt("),
    ],
    ("faq/troubleshooting.md", "reconciliation-alert"): [
        R("shop-worker", "worker/jobs/reconcile.py", "class Mismatch:", doc=True),
        R("shop-worker", "worker/jobs/reconcile.py", "def reconcile("),
    ],
}


def git(repo, *args):
    res = subprocess.run(["git", "-C", os.path.join(HERE, "repos", repo + ".git"), *args],
                         capture_output=True)
    if res.returncode != 0:
        sys.exit(f"git {' '.join(args)} in {repo}: {res.stderr.decode().strip()}")
    return res.stdout


def commit_of(repo, rev):
    return git(repo, "rev-parse", "--verify", rev + "^{commit}").decode().strip()


def digest(lines, start, end):
    body = "\n".join(lines[start - 1:end])
    return "sha256:" + hashlib.sha256(body.encode("utf-8")).hexdigest()


def find(lines, text, after=0, where=""):
    hits = [i for i in range(after, len(lines)) if text in lines[i]]
    if len(hits) != 1 and after == 0:
        sys.exit(f"{where}: anchor {text!r} found {len(hits)} times")
    if not hits:
        sys.exit(f"{where}: end {text!r} not found")
    return hits[0]


def block_end(lines, i, path):
    """Index of the last line of the definition starting at line index i."""
    first = lines[i].rstrip()
    if path.endswith(".py") and first.endswith(":"):
        indent = len(first) - len(first.lstrip())
        end = i
        for j in range(i + 1, len(lines)):
            s = lines[j]
            if s.strip() == "":
                continue
            if len(s) - len(s.lstrip()) <= indent:
                break
            end = j
        return end
    # Python expressions (a dict literal) close with any bracket; elsewhere only braces delimit
    # a definition, so a signature wrapped in parentheses does not end it early.
    opening, closing = ("{([", "})]") if path.endswith(".py") else ("{", "}")
    depth = 0
    opened = False
    for j in range(i, len(lines)):
        in_str = None
        prev = ""
        for ch in lines[j]:
            if in_str:
                if ch == in_str and prev != "\\":
                    in_str = None
            elif ch in "\"`":
                in_str = ch
            elif ch in opening:
                depth += 1
                opened = True
            elif ch in closing:
                depth -= 1
            prev = ch
        if opened and depth <= 0:
            return j
    sys.exit(f"{path}: unbalanced block from line {i + 1}")


def doc_start(lines, i):
    while i > 0:
        s = lines[i - 1].strip()
        if s.startswith(("///", "//", "/**", "* ", "*/", "#[", "@")) or s == "*":
            i -= 1
        else:
            break
    return i


def resolve(lines, ref, where):
    i = find(lines, ref["anchor"], where=where)
    if "lines" in ref:
        end = i + ref["lines"] - 1
    elif "end" in ref:
        end = find(lines, ref["end"], after=i, where=where) + ref.get("extra", 0)
    else:
        end = block_end(lines, i, ref.get("path", ""))
    start = doc_start(lines, i) if ref.get("doc") else i
    return start + 1, end + 1


def page_sections(rel):
    with open(os.path.join(KNOWLEDGE, rel), encoding="utf-8") as f:
        return re.findall(r'^<!-- context:section id="([^"]+)" -->$', f.read(), re.M)


def main():
    check = "--check" in sys.argv[1:]
    pages = sorted(
        os.path.relpath(os.path.join(root, f), KNOWLEDGE).replace(os.sep, "/")
        for root, _, files in os.walk(KNOWLEDGE) for f in files if f.endswith(".md"))
    declared = set(REFS)
    blobs = {}
    pinned = {m: commit_of(repo, rev) for m, (repo, rev, _) in MODULES.items()}

    def text_at(repo, commit, path):
        key = (repo, commit, path)
        if key not in blobs:
            blobs[key] = git(repo, "show", f"{commit}:{path}").decode("utf-8").split("\n")
        return blobs[key]

    out = ["schema_version: context.approved-structure.v1", "articles:"]
    for page in pages:
        collection, stem = page.split("/", 1)[0], page.rsplit("/", 1)[1][:-3]
        out += [f"  - article_id: {stem}", f"    path: {page}",
                f"    collection: {collection}", "    visibility: public", "    sections:"]
        for sid in page_sections(page):
            key = (page, sid)
            if key not in REFS:
                sys.exit(f"{page}#{sid}: no references declared in make-structure.py")
            declared.discard(key)
            refs = REFS[key]
            if len(refs) > 3:
                sys.exit(f"{page}#{sid}: more than 3 references")
            out.append(f"      - id: {sid}")
            out.append("        references:" if refs else "        references: []")
            for ref in refs:
                where = f"{page}#{sid}"
                if "note" in ref:
                    kind, name = ref["note"].split(":", 1)
                    with open(os.path.join(HERE, "sources", kind, name), encoding="utf-8") as f:
                        lines = f.read().split("\n")
                    start, end = resolve(lines, ref, where)
                    src, path, d = ref["note"], name.rsplit("/", 1)[1], digest(lines, start, end)
                else:
                    repo, _, _ = MODULES[ref["module"]]
                    commit = pinned[ref["module"]]
                    lines = text_at(repo, commit, ref["path"])
                    start, end = resolve(lines, ref, where)
                    d = digest(lines, start, end)
                    src, path = "repo:acme/" + ref["module"], ref["path"]
                out += [f"          - source_ref: {src}",
                        "            locator:",
                        f"              path: {path}",
                        f"              start_line: {start}",
                        f"              end_line: {end}",
                        f"            content_digest: {d}"]
    if declared:
        sys.exit(f"declared but not on any page: {sorted(declared)}")
    structure = "\n".join(out) + "\n"

    reg = ["sources:", "  - name: acme", "    modules:"]
    for name, (repo, rev, ref_override) in MODULES.items():
        reg += [f"      - name: {name}", '        subpath: ""', "        git:",
                f"          remote: {REMOTE.format(repo)}",
                f'          ref: "{ref_override or pinned[name]}"']
    registry = "\n".join(reg) + "\n"

    targets = {os.path.join(KNOWLEDGE, "structure.yaml"): structure,
               os.path.join(HERE, "sources", "repo", "index.yaml"): registry}
    stale = []
    for path, text in targets.items():
        current = open(path, encoding="utf-8").read() if os.path.exists(path) else None
        if current != text:
            stale.append(os.path.relpath(path, HERE))
            if not check:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                with open(path, "w", encoding="utf-8", newline="\n") as f:
                    f.write(text)
    if check and stale:
        print("out of date:", ", ".join(stale))
        return 1
    print("up to date" if not stale else "wrote " + ", ".join(stale))
    return 0


if __name__ == "__main__":
    sys.exit(main())
