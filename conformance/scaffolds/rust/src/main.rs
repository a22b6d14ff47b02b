//! __HRC_NAME__: an hrc adapter (spec/adapter-protocol.md). One JSON object per line.
mod json;

use json::Value;
use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::io::{BufRead, Write};

/// Why an operation gives no output (OP-2).
pub enum Failure {
    /// The input breaks the spec: answered `invalid_input`.
    Invalid(String),
    /// An optional feature this port does not have: answered `unsupported`.
    #[allow(dead_code)]
    Unsupported(String),
}

impl From<String> for Failure {
    fn from(why: String) -> Failure {
        Failure::Invalid(why)
    }
}

/// TEXT-8: the length of `text` in Unicode code points. Not `text.len()` (bytes).
fn op_length(input: &Value) -> Result<Value, Failure> {
    match input.get("text") {
        Some(Value::Str(text)) => Ok(Value::object(vec![(
            "length",
            Value::Num(text.chars().count() as f64),
        )])),
        _ => Err(Failure::Invalid("text must be a string".to_string())),
    }
}

type Operation = fn(&Value) -> Result<Value, Failure>;

/// Add one entry per operation you implement.
fn operations() -> BTreeMap<&'static str, Operation> {
    BTreeMap::from([("length", op_length as Operation)])
}

fn answer(msg: &Value) -> Value {
    let seq = msg.get("seq").cloned().unwrap_or(Value::Null);
    let op = msg.get("op").and_then(Value::as_str).unwrap_or("");
    let input = msg.get("input").cloned().unwrap_or(Value::Null);
    let result = match operations().get(op) {
        Some(f) => f(&input),
        None => Err(Failure::Invalid(format!("unknown operation {op}"))),
    };
    match result {
        Ok(output) => Value::object(vec![
            ("type", "result".into()),
            ("seq", seq),
            ("output", output),
        ]),
        // A validation failure is the input's fault (OP-2); a panic would be a bug.
        Err(Failure::Invalid(why)) => error(seq, "invalid_input", &why),
        Err(Failure::Unsupported(why)) => error(seq, "unsupported", &why),
    }
}

fn error(seq: Value, kind: &str, why: &str) -> Value {
    let error = Value::object(vec![("kind", kind.into()), ("message", why.into())]);
    Value::object(vec![("type", "error".into()), ("seq", seq), ("error", error)])
}

fn main() {
    let stdout = std::io::stdout();
    for line in std::io::stdin().lock().lines() {
        let Ok(line) = line else { break };
        let Ok(msg) = json::parse(&line) else {
            continue;
        };
        let reply = match msg.get("type").and_then(Value::as_str) {
            Some("hello") => Value::object(vec![
                ("type", Value::from("hello")),
                ("protocol", Value::Num(1.0)),
                ("name", Value::from("__HRC_NAME__")),
                ("version", Value::from("0.0.1")),
                ("specVersion", Value::from("__HRC_SPEC_VERSION__")),
                (
                    "operations",
                    Value::Arr(operations().keys().map(|k| Value::from(*k)).collect()),
                ),
                ("capabilities", Value::Arr(vec![])),
                ("dataFiles", Value::object(vec![])), // dataFiles: see README.md (PROTO-28)
            ]),
            Some("run") => answer(&msg),
            Some("bye") => break,
            _ => continue,
        };
        let mut line = String::new();
        if write!(line, "{reply}").is_err() {
            // An output with NaN or Infinity (json.rs refuses it): a bug, answered anyway.
            eprintln!("cannot write the answer: output holds a non-finite number");
            let seq = msg.get("seq").cloned().unwrap_or(Value::Null);
            line = error(seq, "internal_error", "output holds a non-finite number").to_string();
        }
        let mut out = stdout.lock();
        writeln!(out, "{line}")
            .and_then(|_| out.flush())
            .expect("stdout closed");
    }
}
