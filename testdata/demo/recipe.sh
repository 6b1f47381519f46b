#!/usr/bin/env bash
# Recreates the demo source repositories under testdata/demo/repos/<name>.git.
#
# Deterministic: fixed authors, e-mails and dates, `git init -b main`, global and system git
# config ignored, single-threaded repacking. Running it again gives the same commit SHAs
# (check-repos.sh verifies that). The resulting bare repositories are committed as ordinary
# files so the demo works offline right after a clone.
#
# Usage: recipe.sh [OUT_DIR]   (default: the repos/ directory next to this script)
set -euo pipefail

HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:-$HERE/repos}
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT

export GIT_CONFIG_GLOBAL=/dev/null GIT_CONFIG_NOSYSTEM=1 TZ=UTC LC_ALL=C
g() { git -c commit.gpgsign=false -c core.autocrlf=false -c core.fileMode=true "$@"; }

# stage NAME: store a file version (stdin) under a name, for put to copy into the tree later.
stage() { mkdir -p "$(dirname "$WORK/stage/$REPO/$1")"; cat > "$WORK/stage/$REPO/$1"; }
# put NAME DEST [SED_ARGS...]: write a staged version into the work tree, optionally via sed.
put() {
  local src=$WORK/stage/$REPO/$1 dst=$WORK/tree/$REPO/$2
  shift 2
  mkdir -p "$(dirname "$dst")"
  if [ $# -gt 0 ]; then sed "$@" "$src" > "$dst"; else cp "$src" "$dst"; fi
}
gmv() { mkdir -p "$(dirname "$WORK/tree/$REPO/$2")"; g -C "$WORK/tree/$REPO" mv "$1" "$2"; }
# commit DATE "NAME <EMAIL>" MESSAGE
commit() {
  local name=${2% <*} email=${2##*<}
  email=${email%>}
  g -C "$WORK/tree/$REPO" add -A
  GIT_AUTHOR_NAME=$name GIT_AUTHOR_EMAIL=$email GIT_AUTHOR_DATE=$1 \
  GIT_COMMITTER_NAME=$name GIT_COMMITTER_EMAIL=$email GIT_COMMITTER_DATE=$1 \
    g -C "$WORK/tree/$REPO" commit -q -m "$3"
}
begin() { REPO=$1; mkdir -p "$WORK/tree/$REPO"; g init -q -b main --template= "$WORK/tree/$REPO"; }
# Publish the work tree as a small bare repository: one pack, loose refs (so refs/ exists in a
# plain checkout of the knowledge repository), no hooks, no logs, no bitmaps.
finish() {
  local bare=$OUT/$REPO.git
  rm -rf "$bare"
  mkdir -p "$OUT"
  g init -q --bare -b main --template= "$bare"
  g -C "$WORK/tree/$REPO" push -q "$bare" main
  g -C "$bare" -c pack.threads=1 -c repack.writeBitmaps=false -c pack.writeReverseIndex=false \
    repack -q -a -d -f
  rm -rf "$bare/objects/info" "$bare/hooks" "$bare/logs" "$bare/info" "$bare/description" \
    "$bare/FETCH_HEAD" "$bare/packed-refs"
  printf '%s %s\n' "$REPO" "$(g -C "$bare" rev-parse main)"
}

AL="Alice Moreau <alice@acme-shop.example>"
BO="Bao Nguyen <bao@acme-shop.example>"
CA="Carmen Ruiz <carmen@acme-shop.example>"
DA="Dev Patel <dev@acme-shop.example>"
ER="Erin Walsh <erin@acme-shop.example>"
FR="Felix Braun <felix@acme-shop.example>"
GR="Grace Okafor <grace@acme-shop.example>"
HE="Hiro Tanaka <hiro@acme-shop.example>"
IV="Ivana Kovac <ivana@acme-shop.example>"
JO="Jonas Berg <jonas@acme-shop.example>"

###############################################################################################
# shop-api: the Rust checkout service
###############################################################################################
begin shop-api

stage Cargo.toml <<'EOF'
[package]
name = "shop-api"
version = "0.3.0"
edition = "2021"
description = "acme shop HTTP API: carts, checkout and orders"

[dependencies]
EOF

stage README.v1.md <<'EOF'
# shop-api

The acme shop HTTP API. Run it with `cargo run`; it listens on `SHOP_LISTEN_ADDR`.
EOF

stage README.md <<'EOF'
# shop-api

The acme shop HTTP API. Run it with `cargo run`; it listens on `SHOP_LISTEN_ADDR`.

## Configuration

| variable | default | meaning |
| --- | --- | --- |
| `SHOP_LISTEN_ADDR` | `0.0.0.0:8080` | address the server binds |
| `SHOP_PAYMENTS_URL` | `http://localhost:9090` | payment provider base URL |
| `SHOP_PAYMENT_MAX_ATTEMPTS` | `4` | attempts per charge (soft declines and timeouts) |
| `SHOP_PAYMENT_BACKOFF_MS` | `250` | first retry delay, doubled per attempt, capped at 5 s |
| `SHOP_RESERVATION_TTL` | `900` | seconds an inventory reservation is held |
EOF

stage main.v1.rs <<'EOF'
//! acme shop API: HTTP entry point.

mod config;
mod payment;

use config::Config;
use payment::{cart_total, charge_once, ChargeOutcome};

/// A parsed HTTP request, reduced to what the router needs.
pub struct Request {
    pub method: String,
    pub path: String,
    pub body: String,
}

/// Routes one request to its handler and returns (status, body).
pub fn route(config: &Config, req: &Request) -> (u16, String) {
    match (req.method.as_str(), req.path.as_str()) {
        ("GET", "/healthz") => (200, "ok".to_string()),
        ("POST", "/v1/checkout") => match cart_total(&req.body) {
            None => (400, "invalid cart".to_string()),
            Some(total) => match charge_once(&config.payments_url, total) {
                ChargeOutcome::Approved => (201, "paid".to_string()),
                ChargeOutcome::Declined => (402, "payment declined".to_string()),
            },
        },
        _ => (404, "not found".to_string()),
    }
}

fn main() {
    let config = Config::from_env();
    println!("shop-api listening on {}", config.listen_addr);
}
EOF

stage payment.rs <<'EOF'
//! Payments: one charge per order against the payment provider.

/// The outcome of one call to the payment provider.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ChargeOutcome {
    Approved,
    Declined,
}

/// Charges the customer once; a declined card fails the checkout immediately.
pub fn charge_once(url: &str, amount_cents: u64) -> ChargeOutcome {
    if url.is_empty() || amount_cents == 0 {
        return ChargeOutcome::Declined;
    }
    ChargeOutcome::Approved
}

/// Parses `sku:qty:price_cents` lines and returns the order total in cents.
pub fn cart_total(body: &str) -> Option<u64> {
    let mut total = 0;
    for raw in body.lines().filter(|l| !l.trim().is_empty()) {
        let parts: Vec<&str> = raw.trim().split(':').collect();
        if parts.len() != 3 {
            return None;
        }
        let qty: u64 = parts[1].parse().ok()?;
        let price: u64 = parts[2].parse().ok()?;
        total += qty * price;
    }
    Some(total)
}
EOF

stage config.v1.rs <<'EOF'
//! Service configuration, read once at start-up from the environment.

use std::env;

/// Settings of the shop API.
#[derive(Debug, Clone)]
pub struct Config {
    pub listen_addr: String,
    pub payments_url: String,
}

impl Config {
    /// Reads the configuration from `SHOP_*` environment variables.
    pub fn from_env() -> Self {
        Config {
            listen_addr: env::var("SHOP_LISTEN_ADDR").unwrap_or_else(|_| "0.0.0.0:8080".into()),
            payments_url: env::var("SHOP_PAYMENTS_URL")
                .unwrap_or_else(|_| "http://localhost:9090".into()),
        }
    }
}
EOF

stage config.rs <<'EOF'
//! Service configuration, read once at start-up from the environment.

use std::env;
use std::time::Duration;

/// Settings of the shop API. Every field has a default suitable for local development.
#[derive(Debug, Clone)]
pub struct Config {
    /// Address the HTTP server binds, `SHOP_LISTEN_ADDR` (default `0.0.0.0:8080`).
    pub listen_addr: String,
    /// Base URL of the payment provider, `SHOP_PAYMENTS_URL`.
    pub payments_url: String,
    /// How many times a soft-declined or timed-out charge is attempted,
    /// `SHOP_PAYMENT_MAX_ATTEMPTS` (default 4).
    pub payment_max_attempts: u32,
    /// First delay between payment attempts, doubled after each failure,
    /// `SHOP_PAYMENT_BACKOFF_MS` (default 250).
    pub payment_backoff: Duration,
    /// Seconds an inventory reservation is held before it expires, `SHOP_RESERVATION_TTL`.
    pub reservation_ttl_secs: u64,
}

impl Config {
    /// Reads the configuration from `SHOP_*` environment variables.
    pub fn from_env() -> Self {
        Config {
            listen_addr: var_or("SHOP_LISTEN_ADDR", "0.0.0.0:8080"),
            payments_url: var_or("SHOP_PAYMENTS_URL", "http://localhost:9090"),
            payment_max_attempts: parse_or("SHOP_PAYMENT_MAX_ATTEMPTS", 4),
            payment_backoff: Duration::from_millis(parse_or("SHOP_PAYMENT_BACKOFF_MS", 250)),
            reservation_ttl_secs: parse_or("SHOP_RESERVATION_TTL", 900),
        }
    }
}

fn var_or(name: &str, default: &str) -> String {
    env::var(name).unwrap_or_else(|_| default.to_string())
}

/// A malformed number falls back to the default instead of failing start-up.
fn parse_or<T: std::str::FromStr>(name: &str, default: T) -> T {
    env::var(name).ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}
EOF

stage main.rs <<'EOF'
//! acme shop API: HTTP entry point for carts, checkout and orders.

mod checkout;
mod config;
mod inventory;

use checkout::{CheckoutError, CheckoutService};
use config::Config;
use inventory::Inventory;

/// A parsed HTTP request, reduced to what the router needs.
pub struct Request {
    pub method: String,
    pub path: String,
    pub body: String,
}

/// The response status and JSON body sent back to the client.
pub struct Response {
    pub status: u16,
    pub body: String,
}

impl Response {
    fn json(status: u16, body: impl Into<String>) -> Self {
        Response { status, body: body.into() }
    }
}

/// Routes one request to its handler and maps checkout errors to HTTP statuses:
/// 400 invalid cart, 402 payment declined, 409 out of stock.
pub fn route(service: &mut CheckoutService, req: &Request) -> Response {
    match (req.method.as_str(), req.path.as_str()) {
        ("GET", "/healthz") => Response::json(200, r#"{"status":"ok"}"#),
        ("POST", "/v1/checkout") => match service.checkout(&req.body) {
            Ok(order) => Response::json(201, format!(r#"{{"order_id":"{}"}}"#, order.id)),
            Err(CheckoutError::InvalidCart(reason)) => Response::json(
                400,
                format!(r#"{{"error":"invalid_cart","reason":"{reason}"}}"#),
            ),
            Err(CheckoutError::PaymentDeclined { attempts }) => Response::json(
                402,
                format!(r#"{{"error":"payment_declined","attempts":{attempts}}}"#),
            ),
            Err(CheckoutError::OutOfStock(sku)) => Response::json(
                409,
                format!(r#"{{"error":"out_of_stock","sku":"{sku}"}}"#),
            ),
        },
        _ => Response::json(404, r#"{"error":"not_found"}"#),
    }
}

fn main() {
    let config = Config::from_env();
    let inventory = Inventory::new(config.reservation_ttl_secs);
    println!("shop-api listening on {}", config.listen_addr);
    let mut service = CheckoutService::new(config, inventory);
    let probe = Request { method: "GET".into(), path: "/healthz".into(), body: String::new() };
    let _ = route(&mut service, &probe);
}
EOF

stage checkout.rs <<'EOF'
//! Checkout: turns a cart into an order, reserving stock and charging the customer.

use std::thread;
use std::time::Duration;

use crate::config::Config;
use crate::inventory::{Inventory, ReservationId};

/// An order that has been paid for.
#[derive(Debug, Clone, PartialEq)]
pub struct Order {
    pub id: String,
    pub total_cents: u64,
    pub reservation: ReservationId,
}

/// Why a checkout did not produce an order.
#[derive(Debug, PartialEq)]
pub enum CheckoutError {
    InvalidCart(String),
    OutOfStock(String),
    PaymentDeclined { attempts: u32 },
}

/// The outcome of one call to the payment provider.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum ChargeOutcome {
    Approved,
    /// Declined for a reason that may pass later (insufficient funds, issuer unavailable).
    SoftDecline,
    /// Declined for good (stolen card, closed account): never retried.
    HardDecline,
    Timeout,
}

/// Parsed cart lines: (sku, quantity, unit price in cents).
pub type CartLines = Vec<(String, u32, u64)>;

/// Owns the inventory and the payment settings; one per process.
pub struct CheckoutService {
    config: Config,
    inventory: Inventory,
    next_order: u64,
}

impl CheckoutService {
    pub fn new(config: Config, inventory: Inventory) -> Self {
        CheckoutService { config, inventory, next_order: 1 }
    }

    /// Reserves stock for every line, then charges the total. When the charge fails the
    /// reservation is released at once, so the stock goes back on sale without waiting for
    /// the reservation TTL.
    pub fn checkout(&mut self, body: &str) -> Result<Order, CheckoutError> {
        let lines = parse_cart(body)?;
        let total: u64 = lines.iter().map(|(_, qty, price)| *qty as u64 * price).sum();
        let reservation = self.inventory.reserve(&lines).map_err(CheckoutError::OutOfStock)?;
        match self.charge_with_retry(total) {
            Ok(()) => {
                self.inventory.commit(reservation);
                let id = format!("ord_{:08}", self.next_order);
                self.next_order += 1;
                Ok(Order { id, total_cents: total, reservation })
            }
            Err(err) => {
                self.inventory.release(reservation);
                Err(err)
            }
        }
    }

    /// Charges `amount_cents`, retrying soft declines and timeouts with exponential backoff
    /// (`payment_backoff`, doubled per attempt, capped at 5 s) up to `payment_max_attempts`.
    ///
    /// Every attempt sends the same idempotency key, so a charge that succeeded but whose
    /// answer timed out is not taken twice.
    pub fn charge_with_retry(&self, amount_cents: u64) -> Result<(), CheckoutError> {
        let key = idempotency_key(self.next_order, amount_cents);
        let mut delay = self.config.payment_backoff;
        for attempt in 1..=self.config.payment_max_attempts {
            match charge(&self.config.payments_url, &key, amount_cents) {
                ChargeOutcome::Approved => return Ok(()),
                ChargeOutcome::HardDecline => {
                    return Err(CheckoutError::PaymentDeclined { attempts: attempt })
                }
                ChargeOutcome::SoftDecline | ChargeOutcome::Timeout => {
                    if attempt < self.config.payment_max_attempts {
                        thread::sleep(delay);
                        delay = (delay * 2).min(Duration::from_secs(5));
                    }
                }
            }
        }
        Err(CheckoutError::PaymentDeclined { attempts: self.config.payment_max_attempts })
    }
}

/// A stable key per order and amount: the provider deduplicates charges that share it.
pub fn idempotency_key(order_seq: u64, amount_cents: u64) -> String {
    format!("chk-{order_seq}-{amount_cents}")
}

/// Parses `sku:qty:price_cents` lines, one per cart item; blank lines are skipped.
pub fn parse_cart(body: &str) -> Result<CartLines, CheckoutError> {
    let bad = |n: usize, what: &str| CheckoutError::InvalidCart(format!("line {}: {what}", n + 1));
    let mut lines = Vec::new();
    for (n, raw) in body.lines().enumerate() {
        let raw = raw.trim();
        if raw.is_empty() {
            continue;
        }
        let parts: Vec<&str> = raw.split(':').collect();
        if parts.len() != 3 {
            return Err(bad(n, "expected sku:qty:price"));
        }
        let qty = parts[1].parse().map_err(|_| bad(n, "bad quantity"))?;
        let price = parts[2].parse().map_err(|_| bad(n, "bad price"))?;
        lines.push((parts[0].to_string(), qty, price));
    }
    if lines.is_empty() {
        return Err(CheckoutError::InvalidCart("empty cart".into()));
    }
    Ok(lines)
}

/// One call to the payment provider. The HTTP client lives in the payments crate; this
/// stand-in approves everything except keys ending in -13.
fn charge(_url: &str, key: &str, amount_cents: u64) -> ChargeOutcome {
    if amount_cents == 0 {
        return ChargeOutcome::Approved;
    }
    if key.ends_with("-13") {
        ChargeOutcome::HardDecline
    } else {
        ChargeOutcome::Approved
    }
}
EOF

stage inventory.rs <<'EOF'
//! Inventory reservations: stock is held while a checkout is in flight.

use std::collections::BTreeMap;
use std::time::{Duration, Instant};

/// Identifies one reservation.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct ReservationId(pub u64);

struct Reservation {
    lines: Vec<(String, u32)>,
    expires_at: Instant,
}

/// In-memory stock levels and the reservations held against them.
pub struct Inventory {
    stock: BTreeMap<String, u32>,
    reservations: BTreeMap<ReservationId, Reservation>,
    ttl: Duration,
    next_id: u64,
}

impl Inventory {
    pub fn new(ttl_secs: u64) -> Self {
        Inventory {
            stock: BTreeMap::new(),
            reservations: BTreeMap::new(),
            ttl: Duration::from_secs(ttl_secs),
            next_id: 1,
        }
    }

    /// Adds available quantity for a SKU (called by the stock importer).
    pub fn restock(&mut self, sku: &str, quantity: u32) {
        *self.stock.entry(sku.to_string()).or_insert(0) += quantity;
    }

    /// Holds stock for every line, or for none: the first SKU short of stock is returned as
    /// the error and the lines taken before it are put back.
    pub fn reserve(&mut self, lines: &[(String, u32, u64)]) -> Result<ReservationId, String> {
        self.expire_stale(Instant::now());
        let mut taken: Vec<(String, u32)> = Vec::new();
        for (sku, qty, _) in lines {
            let available = self.stock.get(sku).copied().unwrap_or(0);
            if available < *qty {
                for (sku, qty) in taken {
                    *self.stock.entry(sku).or_insert(0) += qty;
                }
                return Err(sku.clone());
            }
            self.stock.insert(sku.clone(), available - qty);
            taken.push((sku.clone(), *qty));
        }
        let id = ReservationId(self.next_id);
        self.next_id += 1;
        let expires_at = Instant::now() + self.ttl;
        self.reservations.insert(id, Reservation { lines: taken, expires_at });
        Ok(id)
    }

    /// The order was paid: the reserved quantities stay taken for good.
    pub fn commit(&mut self, id: ReservationId) {
        self.reservations.remove(&id);
    }

    /// The checkout failed: the reserved quantities go back on sale.
    pub fn release(&mut self, id: ReservationId) {
        if let Some(res) = self.reservations.remove(&id) {
            for (sku, qty) in res.lines {
                *self.stock.entry(sku).or_insert(0) += qty;
            }
        }
    }

    /// Releases every reservation past its TTL, e.g. when a client vanished mid-checkout.
    /// Runs at the start of every `reserve`, so stale holds never block a new order.
    pub fn expire_stale(&mut self, now: Instant) -> usize {
        let stale: Vec<ReservationId> = self
            .reservations
            .iter()
            .filter(|(_, r)| r.expires_at <= now)
            .map(|(id, _)| *id)
            .collect();
        for id in &stale {
            self.release(*id);
        }
        stale.len()
    }
}
EOF

put Cargo.toml Cargo.toml
put README.v1.md README.md
put main.v1.rs src/main.rs
put payment.rs src/payment.rs
put config.v1.rs src/config.rs
commit 2026-01-12T09:00:00+00:00 "$AL" "Initial shop API: health check and single-attempt checkout"

gmv src/payment.rs src/checkout.rs
put main.v1.rs src/main.rs -e 's/mod payment;/mod checkout;/' -e 's/use payment::/use checkout::/'
commit 2026-01-26T14:30:00+00:00 "$AL" "Rename the payment module to checkout ahead of the inventory work"

put checkout.rs src/checkout.rs
put inventory.rs src/inventory.rs -e '/self.expire_stale(Instant::now());/d' -e '/Runs at the start of every/d'
put main.rs src/main.rs
put config.rs src/config.rs
commit 2026-02-16T10:15:00+00:00 "$BO" "Checkout: reserve inventory and retry soft declines with exponential backoff"

put inventory.rs src/inventory.rs
put README.md README.md
commit 2026-03-09T16:45:00+00:00 "$CA" "Expire stale reservations before reserving; document configuration"
finish

###############################################################################################
# shop-worker: the Python background worker
###############################################################################################
begin shop-worker

stage pyproject.toml <<'EOF'
[project]
name = "shop-worker"
version = "0.4.0"
description = "acme shop background jobs: receipts and payment reconciliation"
requires-python = ">=3.10"
dependencies = ["redis>=5"]
EOF

stage queue.v1.py <<'EOF'
"""A small Redis-backed job queue."""

import json
import time
from dataclasses import dataclass, field


@dataclass
class Job:
    """One unit of work: a named handler and its JSON payload."""

    id: str
    kind: str
    payload: dict
    deliveries: int = 0
    errors: list = field(default_factory=list)

    def to_json(self):
        return json.dumps({"id": self.id, "kind": self.kind, "payload": self.payload,
                           "deliveries": self.deliveries, "errors": self.errors})

    @classmethod
    def from_json(cls, raw):
        data = json.loads(raw)
        return cls(data["id"], data["kind"], data["payload"], data.get("deliveries", 0),
                   data.get("errors", []))


class JobQueue:
    def __init__(self, redis, name="shop:jobs"):
        self.redis = redis
        self.name = name

    def push(self, job):
        self.redis.lpush(self.name, job.to_json())

    def pop(self, timeout=5):
        raw = self.redis.brpop(self.name, timeout)
        if raw is None:
            return None
        job = Job.from_json(raw[1])
        job.deliveries += 1
        return job, raw[1]

    def ack(self, raw):
        pass

    def fail(self, job, raw, error):
        """Requeues a failed job after a pause; it is retried until it succeeds."""
        job.errors.append(str(error)[:200])
        time.sleep(min(2 ** job.deliveries, 30))
        self.push(job)
        return "retry"
EOF

stage queue.py <<'EOF'
"""A small Redis-backed job queue with retries and a dead-letter list."""

import json
import time
from dataclasses import dataclass, field

MAX_DELIVERIES = 5


@dataclass
class Job:
    """One unit of work: a named handler and its JSON payload."""

    id: str
    kind: str
    payload: dict
    deliveries: int = 0
    errors: list = field(default_factory=list)

    def to_json(self):
        return json.dumps({"id": self.id, "kind": self.kind, "payload": self.payload,
                           "deliveries": self.deliveries, "errors": self.errors})

    @classmethod
    def from_json(cls, raw):
        data = json.loads(raw)
        return cls(data["id"], data["kind"], data["payload"], data.get("deliveries", 0),
                   data.get("errors", []))


class JobQueue:
    """Jobs wait in `shop:jobs`; a job being worked on sits in `shop:jobs:inflight`."""

    def __init__(self, redis, name="shop:jobs"):
        self.redis = redis
        self.name = name
        self.inflight = name + ":inflight"
        self.dead = name + ":dead"

    def push(self, job):
        self.redis.lpush(self.name, job.to_json())

    def pop(self, timeout=5):
        """Moves the next job to the in-flight list atomically, so a crash never loses it."""
        raw = self.redis.brpoplpush(self.name, self.inflight, timeout)
        if raw is None:
            return None
        job = Job.from_json(raw)
        job.deliveries += 1
        return job, raw

    def ack(self, raw):
        self.redis.lrem(self.inflight, 1, raw)

    def fail(self, job, raw, error):
        """Requeues a failed job with exponential backoff, or parks it on the dead-letter
        list once it has been delivered MAX_DELIVERIES times."""
        self.redis.lrem(self.inflight, 1, raw)
        job.errors.append(str(error)[:200])
        if job.deliveries >= MAX_DELIVERIES:
            self.redis.lpush(self.dead, job.to_json())
            return "dead"
        time.sleep(min(2 ** job.deliveries, 30))
        self.redis.lpush(self.name, job.to_json())
        return "retry"

    def requeue_dead(self, limit=100):
        """Operator command: gives dead jobs another full round of deliveries, oldest first."""
        moved = 0
        while moved < limit:
            raw = self.redis.rpop(self.dead)
            if raw is None:
                break
            job = Job.from_json(raw)
            job.deliveries = 0
            self.push(job)
            moved += 1
        return moved
EOF

stage emails.py <<'EOF'
"""Receipt e-mails."""


def send_receipt(mailer, order):
    """Sends the receipt for a paid order."""
    total = order["total_cents"] / 100
    body = f"Thanks for your order {order['order_id']}. We charged {total:.2f} EUR."
    mailer.send(to=order["customer_email"], subject="Your acme order", body=body)
    return "sent"
EOF

stage receipts.py <<'EOF'
"""Receipt e-mails, sent after the shop API reports a paid order."""

from string import Template

RECEIPT_TEMPLATE = Template(
    "Hi $name,\n\n"
    "thanks for your order $order_id. We charged $total to your card.\n"
    "We will e-mail you again when it ships.\n\n"
    "-- acme shop\n"
)


def format_total(cents, currency="EUR"):
    """Formats integer cents the way receipts show them: 12.50 EUR."""
    return f"{cents // 100}.{cents % 100:02d} {currency}"


def render_receipt(order):
    return RECEIPT_TEMPLATE.substitute(
        name=order.get("customer_name") or "there",
        order_id=order["order_id"],
        total=format_total(order["total_cents"], order.get("currency", "EUR")),
    )


def send_receipt(mailer, order):
    """Job handler for `order.paid`: renders and sends the receipt e-mail.

    Raises when the mailer refuses, so the queue retries the job; an order without an
    e-mail address (guest checkout without consent) is skipped, not retried.
    """
    email = order.get("customer_email")
    if not email:
        return "skipped"
    subject = f"Your acme order {order['order_id']}"
    mailer.send(to=email, subject=subject, body=render_receipt(order))
    return "sent"
EOF

stage reconcile.py <<'EOF'
"""Nightly reconciliation of paid orders against the payment provider's settlement report."""

import csv
import io
from dataclasses import dataclass


@dataclass(frozen=True)
class Mismatch:
    order_id: str
    kind: str  # "missing_charge" | "amount_differs" | "unknown_charge"
    ours: int
    theirs: int


def parse_settlement(report_csv):
    """Reads the provider's CSV (order_id, amount_cents, status) into {order_id: cents}.

    Only `settled` rows count; refunds are settled rows with a negative amount.
    """
    settled = {}
    for row in csv.DictReader(io.StringIO(report_csv)):
        if row["status"] != "settled":
            continue
        settled[row["order_id"]] = settled.get(row["order_id"], 0) + int(row["amount_cents"])
    return settled


def reconcile(orders, report_csv):
    """Compares paid orders with settled charges and returns every mismatch, sorted."""
    settled = parse_settlement(report_csv)
    mismatches = []
    for order in orders:
        theirs = settled.pop(order["order_id"], None)
        ours = order["total_cents"] - order.get("refunded_cents", 0)
        if theirs is None:
            mismatches.append(Mismatch(order["order_id"], "missing_charge", ours, 0))
        elif theirs != ours:
            mismatches.append(Mismatch(order["order_id"], "amount_differs", ours, theirs))
    for order_id, theirs in settled.items():
        mismatches.append(Mismatch(order_id, "unknown_charge", 0, theirs))
    return sorted(mismatches, key=lambda m: (m.order_id, m.kind))


def run_nightly(db, provider, alerts):
    """Job handler for `reconcile.nightly`: yesterday's orders against yesterday's report.

    Mismatches are posted to the #payments-alerts channel; nothing is corrected
    automatically.
    """
    day = db.yesterday()
    report = provider.settlement_report(day)
    mismatches = reconcile(db.paid_orders(day), report)
    if mismatches:
        alerts.post(f"{len(mismatches)} payment mismatches on {day}",
                    [m.__dict__ for m in mismatches])
    return len(mismatches)
EOF

stage main.py <<'EOF'
"""Entry point of the shop worker: pulls jobs from the queue and dispatches them."""

import logging
import os
import signal

from worker.jobs import receipts, reconcile
from worker.queue import JobQueue

log = logging.getLogger("shop.worker")

HANDLERS = {
    "order.paid": lambda deps, p: receipts.send_receipt(deps["mailer"], p),
    "reconcile.nightly": lambda deps, p: reconcile.run_nightly(deps["db"], deps["provider"], deps["alerts"]),
}


class Worker:
    def __init__(self, queue, deps):
        self.queue = queue
        self.deps = deps
        self.running = True

    def stop(self, *_):
        """SIGTERM handler: finish the current job, then exit."""
        self.running = False

    def run_once(self):
        item = self.queue.pop(timeout=5)
        if item is None:
            return None
        job, raw = item
        handler = HANDLERS.get(job.kind)
        if handler is None:
            log.error("unknown job kind %s; sending it to the dead-letter list", job.kind)
            job.deliveries = 10**6
            return self.queue.fail(job, raw, "unknown job kind")
        try:
            handler(self.deps, job.payload)
        except Exception as err:  # the queue decides between retry and dead-letter
            log.warning("job %s failed (delivery %d): %s", job.id, job.deliveries, err)
            return self.queue.fail(job, raw, err)
        self.queue.ack(raw)
        return "done"

    def run(self):
        signal.signal(signal.SIGTERM, self.stop)
        while self.running:
            self.run_once()


def main():
    logging.basicConfig(level=os.environ.get("SHOP_WORKER_LOG", "INFO"))
    import redis  # imported here so unit tests run without a Redis client

    url = os.environ.get("SHOP_REDIS_URL", "redis://localhost:6379/0")
    Worker(JobQueue(redis.Redis.from_url(url)), deps={}).run()


if __name__ == "__main__":
    main()
EOF

: > "$WORK/stage/shop-worker/empty"
put pyproject.toml pyproject.toml
put empty worker/__init__.py
put queue.v1.py worker/queue.py
put emails.py worker/emails.py
put main.py worker/main.py -e 's/^from worker.jobs import receipts, reconcile$/from worker import emails/' \
  -e 's/receipts\.send_receipt/emails.send_receipt/' -e '/reconcile\.nightly/d' \
  -e 's/; sending it to the dead-letter list/; dropping it/' -e '/job.deliveries = 10\*\*6/d' \
  -e 's/return self.queue.fail(job, raw, "unknown job kind")/return "dropped"/' \
  -e 's/  # the queue decides between retry and dead-letter//'
commit 2026-01-15T11:00:00+00:00 "$DA" "Worker: queue consumer and receipt e-mails"

gmv worker/emails.py worker/jobs/receipts.py
put empty worker/jobs/__init__.py
put receipts.py worker/jobs/receipts.py
put queue.py worker/queue.py
put main.py worker/main.py -e 's/^from worker.jobs import receipts, reconcile$/from worker.jobs import receipts/' \
  -e '/reconcile\.nightly/d'
commit 2026-02-02T09:40:00+00:00 "$DA" "Move receipts into worker/jobs; dead-letter jobs after five deliveries"

put reconcile.py worker/jobs/reconcile.py
put main.py worker/main.py
commit 2026-02-25T18:20:00+00:00 "$ER" "Nightly payment reconciliation against the settlement report"
finish

###############################################################################################
# shop-web: the TypeScript web client
###############################################################################################
begin shop-web

stage package.json <<'EOF'
{
  "name": "@acme/shop-web",
  "version": "0.5.0",
  "private": true,
  "scripts": {
    "build": "tsc -p .",
    "size": "node scripts/check-bundle-size.js dist/app.js 180"
  },
  "devDependencies": {
    "typescript": "^5.4.0"
  }
}
EOF

stage tsconfig.json <<'EOF'
{
  "compilerOptions": {
    "target": "ES2022",
    "module": "ES2022",
    "strict": true,
    "outDir": "dist",
    "lib": ["ES2022", "DOM"]
  },
  "include": ["src"]
}
EOF

stage api.v1.ts <<'EOF'
// HTTP client for the shop API.

export class ApiError extends Error {
  constructor(public readonly status: number, public readonly code: string) {
    super(`shop api ${status}: ${code}`);
  }
}

export class ApiClient {
  constructor(private readonly baseUrl: string, private readonly token: string) {}

  async request<T>(method: string, path: string, body?: string): Promise<T> {
    const response = await fetch(this.baseUrl + path, {
      method,
      headers: { Authorization: `Bearer ${this.token}` },
      body,
    });
    if (!response.ok) {
      throw new ApiError(response.status, "request_failed");
    }
    return (await response.json()) as T;
  }
}
EOF

stage client.ts <<'EOF'
// HTTP client for the shop API, with bearer tokens refreshed on demand.

export interface TokenStore {
  accessToken(): string | null;
  refreshToken(): string | null;
  save(access: string, refresh: string): void;
  clear(): void;
}

export class ApiError extends Error {
  constructor(public readonly status: number, public readonly code: string) {
    super(`shop api ${status}: ${code}`);
  }
}

export interface CheckoutLine {
  sku: string;
  quantity: number;
  priceCents: number;
}

export class ApiClient {
  private refreshing: Promise<boolean> | null = null;

  constructor(
    private readonly baseUrl: string,
    private readonly tokens: TokenStore,
    private readonly fetchImpl: typeof fetch = fetch,
  ) {}

  /** Sends a request; on 401 refreshes the access token once and replays the request. */
  async request<T>(method: string, path: string, body?: string): Promise<T> {
    let response = await this.send(method, path, body);
    if (response.status === 401 && (await this.refresh())) {
      response = await this.send(method, path, body);
    }
    if (!response.ok) {
      const payload = await response.json().catch(() => ({ error: "unknown" }));
      throw new ApiError(response.status, payload.error ?? "unknown");
    }
    return (await response.json()) as T;
  }

  /** Places the order; the API answers 402 when the payment is declined. */
  checkout(lines: CheckoutLine[]): Promise<{ order_id: string }> {
    const body = lines.map((l) => `${l.sku}:${l.quantity}:${l.priceCents}`).join("\n");
    return this.request("POST", "/v1/checkout", body);
  }

  private send(method: string, path: string, body?: string): Promise<Response> {
    const headers: Record<string, string> = {};
    const token = this.tokens.accessToken();
    if (token) {
      headers["Authorization"] = `Bearer ${token}`;
    }
    return this.fetchImpl(this.baseUrl + path, { method, headers, body });
  }

  /**
   * Exchanges the refresh token for a new pair. Concurrent 401s share one refresh call, so a
   * page that fires five requests at once does not rotate the token five times.
   */
  private refresh(): Promise<boolean> {
    if (!this.refreshing) {
      this.refreshing = this.doRefresh().finally(() => {
        this.refreshing = null;
      });
    }
    return this.refreshing;
  }

  private async doRefresh(): Promise<boolean> {
    const refresh = this.tokens.refreshToken();
    if (!refresh) {
      return false;
    }
    const response = await this.fetchImpl(this.baseUrl + "/v1/auth/refresh", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ refresh_token: refresh }),
    });
    if (!response.ok) {
      // The refresh token was revoked or expired: the user has to sign in again.
      this.tokens.clear();
      return false;
    }
    const pair = await response.json();
    this.tokens.save(pair.access_token, pair.refresh_token);
    return true;
  }
}
EOF

stage cart.v1.ts <<'EOF'
// Cart state of the web client.

export interface CartLine {
  sku: string;
  name: string;
  quantity: number;
  priceCents: number;
}

export class Cart {
  private lines: CartLine[] = [];

  add(line: CartLine): void {
    const existing = this.lines.find((l) => l.sku === line.sku);
    if (existing) {
      existing.quantity += line.quantity;
    } else {
      this.lines.push({ ...line });
    }
  }

  remove(sku: string): void {
    this.lines = this.lines.filter((l) => l.sku !== sku);
  }

  totalCents(): number {
    return this.lines.reduce((sum, l) => sum + l.quantity * l.priceCents, 0);
  }

  items(): readonly CartLine[] {
    return this.lines;
  }
}
EOF

stage cart.ts <<'EOF'
// Cart state of the web client, persisted in localStorage between visits.

import { formatMoney } from "../format/money";

export interface CartLine {
  sku: string;
  name: string;
  quantity: number;
  priceCents: number;
}

const STORAGE_KEY = "acme.cart.v2";
export const MAX_QUANTITY = 20;

export class Cart {
  private lines: CartLine[];

  constructor(private readonly storage: Storage | null = null) {
    this.lines = Cart.load(storage);
  }

  /** Adds a product, merging with an existing line and capping the quantity at MAX_QUANTITY. */
  add(line: CartLine): void {
    const existing = this.lines.find((l) => l.sku === line.sku);
    if (existing) {
      existing.quantity = Math.min(existing.quantity + line.quantity, MAX_QUANTITY);
    } else {
      this.lines.push({ ...line, quantity: Math.min(line.quantity, MAX_QUANTITY) });
    }
    this.persist();
  }

  remove(sku: string): void {
    this.lines = this.lines.filter((l) => l.sku !== sku);
    this.persist();
  }

  totalCents(): number {
    return this.lines.reduce((sum, l) => sum + l.quantity * l.priceCents, 0);
  }

  /** The total as shown in the header badge, e.g. "12,50 €" for de-DE. */
  displayTotal(currency = "EUR", locale = "de-DE"): string {
    return formatMoney(this.totalCents(), currency, locale);
  }

  items(): readonly CartLine[] {
    return this.lines;
  }

  clear(): void {
    this.lines = [];
    this.persist();
  }

  private persist(): void {
    this.storage?.setItem(STORAGE_KEY, JSON.stringify(this.lines));
  }

  private static load(storage: Storage | null): CartLine[] {
    const raw = storage?.getItem(STORAGE_KEY);
    if (!raw) {
      return [];
    }
    try {
      const parsed = JSON.parse(raw);
      return Array.isArray(parsed) ? parsed : [];
    } catch {
      // A corrupt cart is dropped rather than breaking the page.
      return [];
    }
  }
}
EOF

stage money.ts <<'EOF'
// Money formatting: prices travel as integer cents and are formatted only for display.

const formatters = new Map<string, Intl.NumberFormat>();

/** Formats integer cents for display, caching one Intl.NumberFormat per locale and currency. */
export function formatMoney(cents: number, currency: string, locale: string): string {
  const key = `${locale}|${currency}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    formatter = new Intl.NumberFormat(locale, { style: "currency", currency });
    formatters.set(key, formatter);
  }
  return formatter.format(cents / 100);
}

/** Parses user input such as "12,50" or "12.5" into cents; null when it is not a price. */
export function parseMoney(input: string): number | null {
  const normalized = input.trim().replace(",", ".");
  if (!/^\d+(\.\d{1,2})?$/.test(normalized)) {
    return null;
  }
  const [whole, fraction = ""] = normalized.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
}
EOF

stage check-bundle-size.js <<'EOF'
#!/usr/bin/env node
// Fails the build when the gzipped bundle grows past its budget (in KiB).

const fs = require("fs");
const zlib = require("zlib");

function gzippedKiB(path) {
  const bytes = fs.readFileSync(path);
  return zlib.gzipSync(bytes, { level: 9 }).length / 1024;
}

function main(argv) {
  const [path, budget] = argv;
  if (!path || !budget) {
    console.error("usage: check-bundle-size.js BUNDLE BUDGET_KIB");
    return 2;
  }
  const size = gzippedKiB(path);
  if (size > Number(budget)) {
    console.error(`${path}: ${size.toFixed(1)} KiB gzipped, budget ${budget} KiB`);
    return 1;
  }
  console.log(`${path}: ${size.toFixed(1)} KiB gzipped (budget ${budget} KiB)`);
  return 0;
}

process.exitCode = main(process.argv.slice(2));
EOF

put package.json package.json
put tsconfig.json tsconfig.json
put api.v1.ts src/api.ts
put cart.v1.ts src/cart.ts
commit 2026-01-20T13:05:00+00:00 "$FR" "Web client: API wrapper and in-memory cart"

gmv src/api.ts src/api/client.ts
gmv src/cart.ts src/cart/cart.ts
put client.ts src/api/client.ts
commit 2026-02-05T15:10:00+00:00 "$FR" "Split the client into modules; refresh expired tokens once per burst of 401s"

put cart.ts src/cart/cart.ts
put money.ts src/format/money.ts
put check-bundle-size.js scripts/check-bundle-size.js
commit 2026-03-02T08:55:00+00:00 "$GR" "Persist the cart, cap quantities and format totals with Intl.NumberFormat"
finish

###############################################################################################
# shop-cli: shopctl, the Go operator CLI
###############################################################################################
begin shop-cli

stage go.mod <<'EOF'
module github.com/acme/shop-cli

go 1.22
EOF

stage main.v1.go <<'EOF'
// Command shopctl is the operator CLI of the acme shop.
package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"os"
)

type order struct {
	ID         string `json:"order_id"`
	Status     string `json:"status"`
	TotalCents int64  `json:"total_cents"`
}

func main() {
	if len(os.Args) < 3 || os.Args[1] != "orders" || os.Args[2] != "list" {
		fmt.Fprintln(os.Stderr, "usage: shopctl orders list")
		os.Exit(2)
	}
	req, _ := http.NewRequest(http.MethodGet, os.Getenv("SHOPCTL_API_URL")+"/v1/orders", nil)
	req.Header.Set("Authorization", "Bearer "+os.Getenv("SHOPCTL_TOKEN"))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Fprintln(os.Stderr, "shopctl:", err)
		os.Exit(1)
	}
	defer resp.Body.Close()
	var out struct {
		Orders []order `json:"orders"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&out); err != nil {
		fmt.Fprintln(os.Stderr, "shopctl:", err)
		os.Exit(1)
	}
	for _, o := range out.Orders {
		fmt.Printf("%-14s %-10s %8.2f\n", o.ID, o.Status, float64(o.TotalCents)/100)
	}
}
EOF

stage config.go <<'EOF'
// Package config loads shopctl's settings from its config file and the environment.
package config

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Config holds the API endpoint and credentials shopctl talks to.
type Config struct {
	APIURL string
	Token  string
	Output string // "table" or "json"
}

// Path returns the config file location, $XDG_CONFIG_HOME/shopctl/config.toml, falling back
// to ~/.config/shopctl/config.toml.
func Path() string {
	base := os.Getenv("XDG_CONFIG_HOME")
	if base == "" {
		home, _ := os.UserHomeDir()
		base = filepath.Join(home, ".config")
	}
	return filepath.Join(base, "shopctl", "config.toml")
}

// Load reads the config file (key = "value" lines; a missing file is fine) and lets
// SHOPCTL_API_URL and SHOPCTL_TOKEN override it, so CI jobs need no file at all.
func Load(path string) (Config, error) {
	cfg := Config{APIURL: "https://api.acme-shop.example", Output: "table"}
	f, err := os.Open(path)
	if err != nil && !os.IsNotExist(err) {
		return cfg, fmt.Errorf("open %s: %w", path, err)
	}
	if err == nil {
		defer f.Close()
		scanner := bufio.NewScanner(f)
		for n := 1; scanner.Scan(); n++ {
			line := strings.TrimSpace(scanner.Text())
			if line == "" || strings.HasPrefix(line, "#") {
				continue
			}
			key, value, ok := strings.Cut(line, "=")
			if !ok {
				return cfg, fmt.Errorf("%s:%d: expected key = \"value\"", path, n)
			}
			value = strings.Trim(strings.TrimSpace(value), `"`)
			switch strings.TrimSpace(key) {
			case "api_url":
				cfg.APIURL = value
			case "token":
				cfg.Token = value
			case "output":
				cfg.Output = value
			}
		}
	}
	if v := os.Getenv("SHOPCTL_API_URL"); v != "" {
		cfg.APIURL = v
	}
	if v := os.Getenv("SHOPCTL_TOKEN"); v != "" {
		cfg.Token = v
	}
	return cfg, nil
}
EOF

stage orders.go <<'EOF'
// Package orders is shopctl's client for the order endpoints of the shop API.
package orders

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// Order is one row of `shopctl orders list`.
type Order struct {
	ID         string    `json:"order_id"`
	Status     string    `json:"status"`
	TotalCents int64     `json:"total_cents"`
	CreatedAt  time.Time `json:"created_at"`
}

// Client calls the shop API with a bearer token.
type Client struct {
	BaseURL string
	Token   string
	HTTP    *http.Client
}

// NewClient returns a client with a 10 second timeout per request.
func NewClient(baseURL, token string) *Client {
	return &Client{BaseURL: baseURL, Token: token, HTTP: &http.Client{Timeout: 10 * time.Second}}
}

// List returns orders with the given status ("" for all), newest first.
func (c *Client) List(status string, limit int) ([]Order, error) {
	u := fmt.Sprintf("%s/v1/orders?limit=%d", c.BaseURL, limit)
	if status != "" {
		u += "&status=" + url.QueryEscape(status)
	}
	var out struct {
		Orders []Order `json:"orders"`
	}
	if err := c.do(http.MethodGet, u, &out); err != nil {
		return nil, err
	}
	return out.Orders, nil
}

// Cancel cancels an order that has not shipped; the API refunds the payment and releases
// the reserved stock. A shipped order answers 409 and Cancel returns ErrAlreadyShipped.
func (c *Client) Cancel(id, reason string) error {
	u := fmt.Sprintf("%s/v1/orders/%s/cancel?reason=%s", c.BaseURL, url.PathEscape(id),
		url.QueryEscape(reason))
	err := c.do(http.MethodPost, u, nil)
	var apiErr *APIError
	if errors.As(err, &apiErr) && apiErr.Status == http.StatusConflict {
		return ErrAlreadyShipped
	}
	return err
}

// ErrAlreadyShipped is returned by Cancel for orders that have left the warehouse.
var ErrAlreadyShipped = errors.New("order already shipped; open a return instead")

// APIError is a non-2xx answer of the shop API.
type APIError struct {
	Status int
	Code   string
}

func (e *APIError) Error() string {
	return fmt.Sprintf("shop api: %d %s", e.Status, e.Code)
}

func (c *Client) do(method, u string, out interface{}) error {
	req, err := http.NewRequest(method, u, nil)
	if err != nil {
		return err
	}
	req.Header.Set("Authorization", "Bearer "+c.Token)
	resp, err := c.HTTP.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode/100 != 2 {
		var body struct {
			Error string `json:"error"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&body)
		return &APIError{Status: resp.StatusCode, Code: body.Error}
	}
	if out == nil {
		return nil
	}
	return json.NewDecoder(resp.Body).Decode(out)
}
EOF

stage main.go <<'EOF'
// Command shopctl is the operator CLI of the acme shop: list and cancel orders.
package main

import (
	"bufio"
	"errors"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/acme/shop-cli/internal/config"
	"github.com/acme/shop-cli/internal/orders"
)

func main() {
	if len(os.Args) < 3 || os.Args[1] != "orders" {
		usage()
		os.Exit(2)
	}
	cfg, err := config.Load(config.Path())
	if err != nil {
		fmt.Fprintln(os.Stderr, "shopctl:", err)
		os.Exit(1)
	}
	client := orders.NewClient(cfg.APIURL, cfg.Token)
	switch os.Args[2] {
	case "list":
		os.Exit(runList(client, os.Args[3:]))
	case "cancel":
		os.Exit(runCancel(client, os.Args[3:]))
	default:
		usage()
		os.Exit(2)
	}
}

func usage() {
	fmt.Fprintln(os.Stderr, "usage: shopctl orders list [--status S] [--limit N]")
	fmt.Fprintln(os.Stderr, "       shopctl orders cancel ORDER_ID [--reason R] [--yes]")
}

func runList(client *orders.Client, args []string) int {
	fs := flag.NewFlagSet("list", flag.ExitOnError)
	status := fs.String("status", "", "only orders with this status (paid, shipped, cancelled)")
	limit := fs.Int("limit", 20, "maximum number of orders")
	_ = fs.Parse(args)
	list, err := client.List(*status, *limit)
	if err != nil {
		fmt.Fprintln(os.Stderr, "shopctl:", err)
		return 1
	}
	for _, o := range list {
		fmt.Printf("%-14s %-10s %8.2f  %s\n", o.ID, o.Status, float64(o.TotalCents)/100,
			o.CreatedAt.Format("2006-01-02"))
	}
	return 0
}

// runCancel asks for confirmation unless --yes is given, because a cancel refunds the
// customer. Exit status 3 means the order had already shipped.
func runCancel(client *orders.Client, args []string) int {
	if len(args) == 0 {
		usage()
		return 2
	}
	id := args[0]
	fs := flag.NewFlagSet("cancel", flag.ExitOnError)
	reason := fs.String("reason", "requested_by_customer", "reason recorded on the order")
	yes := fs.Bool("yes", false, "do not ask for confirmation")
	_ = fs.Parse(args[1:])
	if !*yes {
		fmt.Printf("Cancel and refund order %s? [y/N] ", id)
		answer, _ := bufio.NewReader(os.Stdin).ReadString('\n')
		if strings.ToLower(strings.TrimSpace(answer)) != "y" {
			fmt.Println("aborted")
			return 1
		}
	}
	if err := client.Cancel(id, *reason); err != nil {
		fmt.Fprintln(os.Stderr, "shopctl:", err)
		if errors.Is(err, orders.ErrAlreadyShipped) {
			return 3
		}
		return 1
	}
	fmt.Println("cancelled", id)
	return 0
}
EOF

put go.mod go.mod
put main.v1.go cmd/shopctl/main.go
commit 2026-01-22T10:30:00+00:00 "$HE" "shopctl: list orders"

put config.go internal/config/config.go
put orders.go internal/orders/orders.go -e '/^\/\/ Cancel cancels/,/^var ErrAlreadyShipped/d' -e '/"errors"/d'
put main.go cmd/shopctl/main.go -e '/case "cancel":/,+1d' -e '/orders cancel ORDER_ID/d' \
  -e '/^\/\/ runCancel asks/,$d' -e '/"bufio"/d' -e '/"strings"/d' -e '/"errors"/d' \
  -e 's/list and cancel orders/list orders/'
commit 2026-02-10T12:00:00+00:00 "$HE" "shopctl: config file with env overrides; orders client package"

put orders.go internal/orders/orders.go
put main.go cmd/shopctl/main.go
commit 2026-03-04T17:25:00+00:00 "$HE" "shopctl orders cancel: confirm, then cancel and refund through the API"
finish

###############################################################################################
# shop-sdk: the Java SDK
###############################################################################################
begin shop-sdk

stage pom.xml <<'EOF'
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>com.acme</groupId>
  <artifactId>shop-sdk</artifactId>
  <version>1.3.0</version>
  <properties>
    <maven.compiler.release>17</maven.compiler.release>
  </properties>
</project>
EOF

stage ShopClient.v1.java <<'EOF'
package com.acme.shop;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;

/** Java client for the acme shop API. */
public final class ShopClient {
    private final HttpClient http = HttpClient.newHttpClient();
    private final URI baseUri;
    private final String apiKey;

    public ShopClient(URI baseUri, String apiKey) {
        this.baseUri = baseUri;
        this.apiKey = apiKey;
    }

    /** Fetches one order, trying up to three times when the API is unavailable. */
    public Order getOrder(String orderId) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(baseUri.resolve("/v1/orders/" + orderId))
                .header("Authorization", "Bearer " + apiKey)
                .build();
        HttpResponse<String> response = null;
        for (int attempt = 1; attempt <= 3; attempt++) {
            response = http.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 503) {
                break;
            }
            Thread.sleep(200L * attempt);
        }
        return Order.fromJson(response.body());
    }
}
EOF

stage RetryPolicy.java <<'EOF'
package com.acme.shop;

import java.time.Duration;
import java.util.Set;

/**
 * When and how long the SDK waits before repeating a failed request.
 *
 * <p>Only idempotent requests are retried, and only on these statuses: 429 and 503 mean
 * "come back later", 502 and 504 are the ingress timing out in front of a healthy backend.
 */
public final class RetryPolicy {
    private static final Set<Integer> RETRYABLE = Set.of(429, 502, 503, 504);

    private final int maxAttempts;
    private final Duration baseDelay;
    private final Duration maxDelay;

    public RetryPolicy(int maxAttempts, Duration baseDelay, Duration maxDelay) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1");
        }
        this.maxAttempts = maxAttempts;
        this.baseDelay = baseDelay;
        this.maxDelay = maxDelay;
    }

    /** Three attempts, waiting 200 ms then 400 ms, never more than 2 s. */
    public static RetryPolicy defaults() {
        return new RetryPolicy(3, Duration.ofMillis(200), Duration.ofSeconds(2));
    }

    public boolean shouldRetry(int attempt, int status, boolean idempotent) {
        return idempotent && attempt < maxAttempts && RETRYABLE.contains(status);
    }

    /** Exponential backoff; a Retry-After header from the server wins when it is longer. */
    public Duration delayBefore(int nextAttempt, Duration retryAfter) {
        long factor = 1L << Math.min(nextAttempt - 2, 16);
        Duration backoff = baseDelay.multipliedBy(factor);
        if (backoff.compareTo(maxDelay) > 0) {
            backoff = maxDelay;
        }
        return retryAfter != null && retryAfter.compareTo(backoff) > 0 ? retryAfter : backoff;
    }

    public int maxAttempts() {
        return maxAttempts;
    }
}
EOF

stage ShopClient.java <<'EOF'
package com.acme.shop;

import com.acme.shop.model.Order;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Optional;

/** Java client for the acme shop API. Thread-safe: create one per application. */
public final class ShopClient {
    private final HttpClient http;
    private final URI baseUri;
    private final String apiKey;
    private final RetryPolicy retryPolicy;

    private ShopClient(Builder builder) {
        this.http = HttpClient.newBuilder().connectTimeout(builder.connectTimeout).build();
        this.baseUri = builder.baseUri;
        this.apiKey = builder.apiKey;
        this.retryPolicy = builder.retryPolicy;
    }

    public static Builder builder(String apiKey) {
        return new Builder(apiKey);
    }

    /** Fetches one order; empty when it does not exist. */
    public Optional<Order> getOrder(String orderId) throws IOException, InterruptedException {
        URI uri = baseUri.resolve("/v1/orders/" + orderId);
        HttpResponse<String> response = send(HttpRequest.newBuilder(uri).GET(), true);
        if (response.statusCode() == 404) {
            return Optional.empty();
        }
        return Optional.of(Order.fromJson(response.body()));
    }

    /**
     * Sends a request, retrying as the policy allows. A POST is not idempotent and is sent
     * once, unless the caller set an Idempotency-Key header and passes idempotent = true.
     */
    HttpResponse<String> send(HttpRequest.Builder request, boolean idempotent)
            throws IOException, InterruptedException {
        request.header("Authorization", "Bearer " + apiKey);
        request.header("User-Agent", "acme-shop-java/1.3");
        int attempt = 1;
        HttpResponse<String> response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        while (retryPolicy.shouldRetry(attempt, response.statusCode(), idempotent)) {
            Duration retryAfter = response.headers().firstValue("Retry-After")
                    .map(s -> Duration.ofSeconds(Long.parseLong(s.trim())))
                    .orElse(null);
            attempt++;
            Thread.sleep(retryPolicy.delayBefore(attempt, retryAfter).toMillis());
            response = http.send(request.build(), HttpResponse.BodyHandlers.ofString());
        }
        if (response.statusCode() >= 400 && response.statusCode() != 404) {
            throw new ShopException(response.statusCode(), response.body());
        }
        return response;
    }

    /** Configures a client: base URI, connect timeout and retry policy. */
    public static final class Builder {
        private final String apiKey;
        private URI baseUri = URI.create("https://api.acme-shop.example");
        private Duration connectTimeout = Duration.ofSeconds(5);
        private RetryPolicy retryPolicy = RetryPolicy.defaults();

        private Builder(String apiKey) {
            this.apiKey = apiKey;
        }

        public Builder baseUri(URI baseUri) {
            this.baseUri = baseUri;
            return this;
        }

        public Builder connectTimeout(Duration connectTimeout) {
            this.connectTimeout = connectTimeout;
            return this;
        }

        public Builder retryPolicy(RetryPolicy retryPolicy) {
            this.retryPolicy = retryPolicy;
            return this;
        }

        public ShopClient build() {
            if (apiKey == null || apiKey.isBlank()) {
                throw new IllegalStateException("an API key is required");
            }
            return new ShopClient(this);
        }
    }

    /** A 4xx or 5xx answer that was not retried, or that ran out of retries. */
    public static final class ShopException extends IOException {
        private final int status;

        public ShopException(int status, String body) {
            super("shop api " + status + ": " + body);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }
}
EOF

stage Order.java <<'EOF'
package com.acme.shop.model;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** An order as returned by the shop API. Amounts are integer cents, never floating point. */
public final class Order {
    private static final Pattern FIELD = Pattern.compile("\"(\\w+)\"\\s*:\\s*\"?([^\",}]*)\"?");
    private static final Pattern LINE = Pattern.compile(
            "\\{\"sku\":\"([^\"]+)\",\"quantity\":(\\d+),\"price_cents\":(\\d+)}");

    private final String id;
    private final String status;
    private final long totalCents;
    private final List<LineItem> lines;

    public Order(String id, String status, long totalCents, List<LineItem> lines) {
        this.id = id;
        this.status = status;
        this.totalCents = totalCents;
        this.lines = Collections.unmodifiableList(new ArrayList<>(lines));
    }

    public String id() {
        return id;
    }

    public String status() {
        return status;
    }

    public long totalCents() {
        return totalCents;
    }

    public List<LineItem> lines() {
        return lines;
    }

    /** True while the order can still be cancelled (paid but not shipped). */
    public boolean isCancellable() {
        return "paid".equals(status);
    }

    /** Parses the API's order JSON; unknown fields are ignored so new API fields never break it. */
    public static Order fromJson(String json) {
        String id = null;
        String status = null;
        long total = 0;
        Matcher m = FIELD.matcher(json);
        while (m.find()) {
            switch (m.group(1)) {
                case "order_id" -> id = m.group(2);
                case "status" -> status = m.group(2);
                case "total_cents" -> total = Long.parseLong(m.group(2));
                default -> { }
            }
        }
        List<LineItem> lines = new ArrayList<>();
        Matcher l = LINE.matcher(json);
        while (l.find()) {
            lines.add(new LineItem(l.group(1), Integer.parseInt(l.group(2)), Long.parseLong(l.group(3))));
        }
        return new Order(id, status, total, lines);
    }

    /** One product line of an order. */
    public static final class LineItem {
        public final String sku;
        public final int quantity;
        public final long priceCents;

        public LineItem(String sku, int quantity, long priceCents) {
            this.sku = sku;
            this.quantity = quantity;
            this.priceCents = priceCents;
        }

        public long subtotalCents() {
            return quantity * priceCents;
        }
    }
}
EOF

JAVA=src/main/java/com/acme/shop
put pom.xml pom.xml
put ShopClient.v1.java $JAVA/ShopClient.java
put Order.java $JAVA/Order.java -e 's/^package com.acme.shop.model;/package com.acme.shop;/'
commit 2026-01-28T09:20:00+00:00 "$IV" "Java SDK: ShopClient.getOrder and the Order model"

put RetryPolicy.java $JAVA/RetryPolicy.java
put ShopClient.java $JAVA/ShopClient.java -e '/^import com.acme.shop.model.Order;$/d'
commit 2026-02-18T11:45:00+00:00 "$IV" "Extract RetryPolicy: retry idempotent requests on 429/502/503/504, honour Retry-After"

gmv $JAVA/Order.java $JAVA/model/Order.java
put Order.java $JAVA/model/Order.java
put ShopClient.java $JAVA/ShopClient.java
commit 2026-03-11T14:00:00+00:00 "$JO" "Move Order into the model package"
finish
