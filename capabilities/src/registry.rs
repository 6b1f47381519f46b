//! The capability registry: named, versioned capabilities with JSON input schemas, run
//! through one entry point that always answers with a [`CapabilityResult`].

use crate::context::Context;
use crate::drift::capability as drift;
use crate::evidence::{CapabilityResult, Code};
use crate::inputs::{
    check_as, schema_of, CitationsOfInput, DriftInput, EvidencePackInput, ImpactInput, NoInput,
    PathBetweenInput, SectionEvidenceInput, SectionReferencesInput,
};
use crate::queries;
use serde_json::{json, Map, Value};

type Runner = fn(&Context<'_>, &Map<String, Value>) -> CapabilityResult;

/// A registered capability. Its input is a type of [`crate::inputs`]: `schema` is derived from
/// it and `check` deserializes into it, so the published schema and validation cannot drift.
#[derive(Clone, Copy)]
pub struct Capability {
    /// Its name (`EvidencePack`).
    pub name: &'static str,
    /// Its version.
    pub version: &'static str,
    /// What it answers.
    pub description: &'static str,
    schema: fn() -> Value,
    check: fn(&Value) -> Result<(), String>,
    run: Runner,
}

impl std::fmt::Debug for Capability {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Capability")
            .field("name", &self.name)
            .field("version", &self.version)
            .finish()
    }
}

impl Capability {
    /// The JSON Schema of the input (draft 2020-12: an object with typed properties,
    /// `required`, and no additional properties).
    pub fn input_schema(&self) -> Value {
        (self.schema)()
    }

    /// The input fields, in schema order, with whether each is required.
    pub fn fields(&self) -> Vec<(String, bool)> {
        let schema = self.input_schema();
        let required: Vec<&str> = schema["required"]
            .as_array()
            .into_iter()
            .flatten()
            .filter_map(Value::as_str)
            .collect();
        schema["properties"]
            .as_object()
            .into_iter()
            .flatten()
            .map(|(k, _)| (k.clone(), required.contains(&k.as_str())))
            .collect()
    }

    /// `{query: string, limit?: integer}`: the input in one line, for messages.
    fn expected(&self) -> String {
        let schema = self.input_schema();
        let fields: Vec<String> = self
            .fields()
            .into_iter()
            .map(|(name, required)| {
                let ty = schema["properties"][&name]["type"]
                    .as_str()
                    .unwrap_or("value")
                    .to_string();
                format!("{name}{}: {ty}", if required { "" } else { "?" })
            })
            .collect();
        format!("{{{}}}", fields.join(", "))
    }

    fn validate<'v>(&self, input: &'v Value) -> Result<&'v Map<String, Value>, String> {
        let Some(obj) = input.as_object() else {
            return Err(format!(
                "{} expects a JSON object {}",
                self.name,
                self.expected()
            ));
        };
        (self.check)(input)
            .map_err(|e| format!("{}: {e}; expected {}", self.name, self.expected()))?;
        Ok(obj)
    }
}

/// Every registered capability, sorted by name.
pub const CAPABILITIES: &[Capability] = &[
    Capability {
        name: "CitationsOf",
        version: "1",
        description: "Which sections cite a file, a line range of it (`path:START-END`), or a symbol (by qualified name).",
        schema: schema_of::<CitationsOfInput>,
        check: check_as::<CitationsOfInput>,
        run: queries::citations_of,
    },
    Capability {
        name: "Drift",
        version: "1",
        description: "Is the knowledge still true? Every repo:/repo-content: reference compared at a later commit: unchanged, moved (new range), changed (mapped range, symbol, re-anchoring suggestion, where most of its lines went), missing (the same hints) or unverifiable (reason).",
        schema: schema_of::<DriftInput>,
        check: check_as::<DriftInput>,
        run: drift::run_drift,
    },
    Capability {
        name: "EvidencePack",
        version: "1",
        description: "The Evidence Pack for a question: top sections, their pinned citations, confidence, fallbacks.",
        schema: schema_of::<EvidencePackInput>,
        check: check_as::<EvidencePackInput>,
        run: queries::evidence_pack,
    },
    Capability {
        name: "GraphStatistics",
        version: "1",
        description: "Counts of nodes and edges by kind, and the graph's identity.",
        schema: schema_of::<NoInput>,
        check: check_as::<NoInput>,
        run: queries::graph_statistics,
    },
    Capability {
        name: "Impact",
        version: "1",
        description: "The sections and pages whose cited ranges, or the symbols behind them, a change touches (or whose cited files it renames): two commits of a source (`from`, `to`) or a unified diff against `from` (default the clone's HEAD), with the hunks.",
        schema: schema_of::<ImpactInput>,
        check: check_as::<ImpactInput>,
        run: drift::run_impact,
    },
    Capability {
        name: "PathBetween",
        version: "1",
        description: "The shortest relationship path between two nodes (bounded breadth-first search, edges in either direction).",
        schema: schema_of::<PathBetweenInput>,
        check: check_as::<PathBetweenInput>,
        run: queries::path_between,
    },
    Capability {
        name: "SectionEvidence",
        version: "1",
        description: "One section with its references, verification status, symbols and path evidence.",
        schema: schema_of::<SectionEvidenceInput>,
        check: check_as::<SectionEvidenceInput>,
        run: queries::section_evidence,
    },
    Capability {
        name: "SectionReferences",
        version: "1",
        description: "The references of the sections overlapping a returned range of a knowledge page, in the exact YAML of Context's plugin (data.yaml).",
        schema: schema_of::<SectionReferencesInput>,
        check: check_as::<SectionReferencesInput>,
        run: queries::section_references,
    },
    Capability {
        name: "Validate",
        version: "1",
        description: "Every validation diagnostic of the graph.",
        schema: schema_of::<NoInput>,
        check: check_as::<NoInput>,
        run: queries::validate,
    },
];

/// The capability of this name.
pub fn lookup(name: &str) -> Option<&'static Capability> {
    CAPABILITIES.iter().find(|c| c.name == name)
}

/// Runs capability `name` on `input`. Never panics on user input: an unknown name or an input
/// that does not match the schema comes back as an error result with its diagnostic.
pub fn run(ctx: &Context<'_>, name: &str, input: &Value) -> CapabilityResult {
    let Some(cap) = lookup(name) else {
        let names: Vec<&str> = CAPABILITIES.iter().map(|c| c.name).collect();
        return CapabilityResult::error(
            ctx.provenance(),
            name,
            "",
            Code::CapabilityNotRegistered,
            format!(
                "no capability named {name:?}; registered: {}",
                names.join(", ")
            ),
        );
    };
    let empty = Value::Object(Map::new());
    let input = if input.is_null() { &empty } else { input };
    match cap.validate(input) {
        Ok(obj) => {
            let mut r = (cap.run)(ctx, obj);
            // Every capability's reply is paid for by its reader: a node once per result.
            crate::evidence::carry_nodes_once(&mut r.evidence);
            r
        }
        Err(msg) => CapabilityResult::error(
            ctx.provenance(),
            cap.name,
            cap.version,
            Code::CapabilityInvalidInput,
            msg,
        ),
    }
}

/// Runs capability `name` on a JSON text (`ontoly run`, MCP).
pub fn run_json(ctx: &Context<'_>, name: &str, input_json: &str) -> CapabilityResult {
    match serde_json::from_str::<Value>(input_json) {
        Ok(v) => run(ctx, name, &v),
        Err(e) => {
            let version = lookup(name).map(|c| c.version).unwrap_or("");
            if lookup(name).is_none() {
                return run(ctx, name, &Value::Null);
            }
            CapabilityResult::error(
                ctx.provenance(),
                name,
                version,
                Code::CapabilityInvalidInput,
                format!("input is not valid JSON: {e}"),
            )
        }
    }
}

/// The registry as JSON: name, version, description and input schema of each capability.
pub fn describe() -> Value {
    Value::Array(
        CAPABILITIES
            .iter()
            .map(|c| {
                json!({
                    "name": c.name,
                    "version": c.version,
                    "description": c.description,
                    "inputSchema": c.input_schema(),
                })
            })
            .collect(),
    )
}
