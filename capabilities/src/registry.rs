//! The capability registry: named, versioned capabilities with JSON input schemas, run
//! through one entry point that always answers with a [`CapabilityResult`].

use crate::context::Context;
use crate::evidence::{CapabilityResult, Code};
use crate::{pack, queries};
use serde_json::{json, Map, Value};

/// A field type of an input schema.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FieldType {
    /// A JSON string.
    String,
    /// A JSON integer.
    Integer,
    /// A JSON boolean.
    Boolean,
}

impl FieldType {
    fn name(self) -> &'static str {
        match self {
            FieldType::String => "string",
            FieldType::Integer => "integer",
            FieldType::Boolean => "boolean",
        }
    }

    fn accepts(self, v: &Value) -> bool {
        match self {
            FieldType::String => v.is_string(),
            FieldType::Integer => v.is_i64() || v.is_u64(),
            FieldType::Boolean => v.is_boolean(),
        }
    }
}

/// One input field of a capability.
#[derive(Debug, Clone, Copy)]
pub struct Field {
    /// JSON key.
    pub name: &'static str,
    /// Its type.
    pub ty: FieldType,
    /// Whether it must be present.
    pub required: bool,
    /// What it means.
    pub description: &'static str,
}

type Runner = fn(&Context<'_>, &Map<String, Value>) -> CapabilityResult;

/// A registered capability.
#[derive(Clone, Copy)]
pub struct Capability {
    /// Its name (`EvidencePack`).
    pub name: &'static str,
    /// Its version.
    pub version: &'static str,
    /// What it answers.
    pub description: &'static str,
    /// Its input fields.
    pub fields: &'static [Field],
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
    /// The JSON Schema of the input (draft 2020-12 subset: object, typed properties, required,
    /// no additional properties).
    pub fn input_schema(&self) -> Value {
        let mut props = Map::new();
        for f in self.fields {
            let mut p = json!({ "type": f.ty.name(), "description": f.description });
            if f.name == "limit" {
                p["minimum"] = json!(1);
                p["default"] = json!(pack::DEFAULT_LIMIT);
            }
            props.insert(f.name.to_string(), p);
        }
        let required: Vec<&str> = self
            .fields
            .iter()
            .filter(|f| f.required)
            .map(|f| f.name)
            .collect();
        json!({
            "type": "object",
            "properties": props,
            "required": required,
            "additionalProperties": false,
        })
    }

    fn validate<'v>(&self, input: &'v Value) -> Result<&'v Map<String, Value>, String> {
        let expected = || {
            self.fields
                .iter()
                .map(|f| {
                    format!(
                        "{}{}: {}",
                        f.name,
                        if f.required { "" } else { "?" },
                        f.ty.name()
                    )
                })
                .collect::<Vec<_>>()
                .join(", ")
        };
        let Some(obj) = input.as_object() else {
            return Err(format!(
                "{} expects a JSON object {{{}}}",
                self.name,
                expected()
            ));
        };
        for key in obj.keys() {
            if !self.fields.iter().any(|f| f.name == key) {
                return Err(format!(
                    "{} does not take {key:?}; expected {{{}}}",
                    self.name,
                    expected()
                ));
            }
        }
        for f in self.fields {
            match obj.get(f.name) {
                None | Some(Value::Null) if f.required => {
                    return Err(format!(
                        "{} requires {:?} ({}); expected {{{}}}",
                        self.name,
                        f.name,
                        f.ty.name(),
                        expected()
                    ))
                }
                Some(v) if !v.is_null() && !f.ty.accepts(v) => {
                    return Err(format!(
                        "{}.{} must be a {}, got {v}",
                        self.name,
                        f.name,
                        f.ty.name()
                    ))
                }
                _ => {}
            }
        }
        Ok(obj)
    }
}

const fn field(
    name: &'static str,
    ty: FieldType,
    required: bool,
    description: &'static str,
) -> Field {
    Field {
        name,
        ty,
        required,
        description,
    }
}

/// Every registered capability, sorted by name.
pub const CAPABILITIES: &[Capability] = &[
    Capability {
        name: "CitationsOf",
        version: "1",
        description: "Which sections cite a file, a line range of it (`path:START-END`), or a symbol (by qualified name).",
        fields: &[field("target", FieldType::String, true, "`path`, `path:START-END`, a node id, or a symbol's qualified name")],
        run: queries::citations_of,
    },
    Capability {
        name: "EvidencePack",
        version: "1",
        description: "The Evidence Pack for a question: top sections, their pinned citations, confidence, fallbacks.",
        fields: &[
            field("query", FieldType::String, true, "the question"),
            field("limit", FieldType::Integer, false, "entities in the pack (default 12, clamped to 5-20)"),
        ],
        run: queries::evidence_pack,
    },
    Capability {
        name: "GraphStatistics",
        version: "1",
        description: "Counts of nodes and edges by kind, and the graph's identity.",
        fields: &[],
        run: queries::graph_statistics,
    },
    Capability {
        name: "PathBetween",
        version: "1",
        description: "The shortest relationship path between two nodes (bounded breadth-first search, edges in either direction).",
        fields: &[
            field("from", FieldType::String, true, "a node id"),
            field("to", FieldType::String, true, "a node id"),
        ],
        run: queries::path_between,
    },
    Capability {
        name: "SectionEvidence",
        version: "1",
        description: "One section with its references, verification status, symbols and path evidence.",
        fields: &[field("section", FieldType::String, true, "a section id (`section:page.md#id`) or `page.md#id`")],
        run: queries::section_evidence,
    },
    Capability {
        name: "SectionReferences",
        version: "1",
        description: "The references of the sections overlapping a returned range of a knowledge page, in the exact YAML of Context's plugin (data.yaml).",
        fields: &[
            field("path", FieldType::String, true, "the page, `knowledge/faq/guide.md`"),
            field("startLine", FieldType::Integer, true, "first returned line (1-based)"),
            field("endLine", FieldType::Integer, true, "last returned line (inclusive)"),
            field("includeDigest", FieldType::Boolean, false, "pinned URLs come with their content_digest"),
        ],
        run: queries::section_references,
    },
    Capability {
        name: "Validate",
        version: "1",
        description: "Every validation diagnostic of the graph.",
        fields: &[],
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
        Ok(obj) => (cap.run)(ctx, obj),
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
