//! CEL's functions and operators as the editor documents them.

use super::{Function, Operator, function};

pub(super) const CEL_FUNCTIONS: &[Function] = &[
    function(
        "size",
        "size(string | list | map) -> int",
        "The number of characters, items or keys.",
        "size(tags) > 0",
    ),
    function(
        "contains",
        "string.contains(string) -> bool",
        "Whether the string holds the other one.",
        "message.contains('ERROR')",
    ),
    function(
        "startsWith",
        "string.startsWith(string) -> bool",
        "Whether the string begins with the other one.",
        "name.startsWith('kind-')",
    ),
    function(
        "endsWith",
        "string.endsWith(string) -> bool",
        "Whether the string ends with the other one.",
        "website.endsWith('.biz')",
    ),
    function(
        "matches",
        "string.matches(regex) -> bool",
        "Whether the string matches the regular expression (RE2 syntax) anywhere.",
        "name.matches('(?i)^web')",
    ),
    function(
        "string",
        "string(value) -> string",
        "The value converted to a string.",
        "string(rev) == '3'",
    ),
    function(
        "int",
        "int(value) -> int",
        "The value converted to an integer (a string of digits, a double, a timestamp).",
        "int(count) > 3",
    ),
    function(
        "uint",
        "uint(value) -> uint",
        "The value converted to an unsigned integer.",
        "uint(port) < 1024u",
    ),
    function(
        "double",
        "double(value) -> double",
        "The value converted to a double.",
        "double(used) / double(total)",
    ),
    function(
        "bool",
        "bool(string) -> bool",
        "`'true'` or `'false'` converted to a boolean.",
        "bool(enabled)",
    ),
    function(
        "bytes",
        "bytes(string) -> bytes",
        "The string's UTF-8 bytes.",
        "size(bytes(name))",
    ),
    function(
        "type",
        "type(value) -> type",
        "The value's type.",
        "type(rev) == int",
    ),
    function(
        "dyn",
        "dyn(value) -> dyn",
        "The value, its type left to the evaluation.",
        "dyn(rev) == 3",
    ),
    function(
        "duration",
        "duration(string) -> duration",
        "A duration written as Go writes one (`90s`, `1h30m`).",
        "duration('1h') > duration('30m')",
    ),
    function(
        "timestamp",
        "timestamp(string) -> timestamp",
        "An RFC 3339 time.",
        "timestamp(created) > timestamp('2026-01-01T00:00:00Z')",
    ),
    function(
        "getFullYear",
        "timestamp.getFullYear() -> int",
        "The year of a time (UTC).",
        "timestamp(created).getFullYear() == 2026",
    ),
    function(
        "getMonth",
        "timestamp.getMonth() -> int",
        "The month of a time, from 0 for January (UTC).",
        "timestamp(created).getMonth() == 0",
    ),
    function(
        "getDayOfMonth",
        "timestamp.getDayOfMonth() -> int",
        "The day of the month of a time, from 0 (UTC).",
        "timestamp(created).getDayOfMonth() < 7",
    ),
    function(
        "getHours",
        "timestamp.getHours() -> int",
        "The hour of a time (UTC).",
        "timestamp(created).getHours() >= 9",
    ),
    function(
        "getMinutes",
        "timestamp.getMinutes() -> int",
        "The minute of a time (UTC).",
        "timestamp(created).getMinutes() == 0",
    ),
    function(
        "getSeconds",
        "timestamp.getSeconds() -> int",
        "The second of a time (UTC).",
        "timestamp(created).getSeconds() < 30",
    ),
    function(
        "getDayOfWeek",
        "timestamp.getDayOfWeek() -> int",
        "The day of the week of a time, from 0 for Sunday (UTC).",
        "timestamp(created).getDayOfWeek() == 1",
    ),
];

pub(super) const CEL_OPERATORS: &[Operator] = &[
    Operator {
        symbol: "==",
        summary: "Equal (values of different types are never equal).",
    },
    Operator {
        symbol: "!=",
        summary: "Not equal.",
    },
    Operator {
        symbol: "<",
        summary: "Less than (two numbers, two strings or two booleans).",
    },
    Operator {
        symbol: "<=",
        summary: "Less than or equal.",
    },
    Operator {
        symbol: ">",
        summary: "Greater than.",
    },
    Operator {
        symbol: ">=",
        summary: "Greater than or equal.",
    },
    Operator {
        symbol: "&&",
        summary: "And (booleans).",
    },
    Operator {
        symbol: "||",
        summary: "Or (booleans).",
    },
    Operator {
        symbol: "!",
        summary: "Not (a boolean).",
    },
    Operator {
        symbol: "+",
        summary: "Adds two numbers; joins two strings or two lists.",
    },
    Operator {
        symbol: "-",
        summary: "Subtracts, or negates a number.",
    },
    Operator {
        symbol: "*",
        summary: "Multiplies.",
    },
    Operator {
        symbol: "/",
        summary: "Divides (integers: the quotient; by zero: an error).",
    },
    Operator {
        symbol: "%",
        summary: "The remainder of an integer division.",
    },
    Operator {
        symbol: "in",
        summary: "Whether a value is an item of a list or a key of a map.",
    },
    Operator {
        symbol: "? :",
        summary: "The second operand when the first is true, else the third.",
    },
];
