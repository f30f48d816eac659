//! What the editor says of each language's functions and operators: per function a signature,
//! one line on what it does and one example; per operator what it does. A test holds the
//! functions documented here to the functions the language has ([`Language::functions`]).

mod cel;
mod expr;

use crate::Language;
use cel::{CEL_FUNCTIONS, CEL_OPERATORS};
use expr::{EXPR_FUNCTIONS, EXPR_OPERATORS};

/// A function of an expression language, as completion and hover show it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Function {
    /// Its name, as called.
    pub name: &'static str,
    /// How it is called, with its argument and result types.
    pub signature: &'static str,
    /// What it gives.
    pub summary: &'static str,
    /// One expression that calls it.
    pub example: &'static str,
}

/// An operator of an expression language, as completion shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Operator {
    /// How it is written.
    pub symbol: &'static str,
    /// What it does.
    pub summary: &'static str,
}

impl Language {
    /// Its functions, documented, in the order completion offers them.
    pub fn function_docs(self) -> &'static [Function] {
        match self {
            Language::Cel => CEL_FUNCTIONS,
            Language::Expr => EXPR_FUNCTIONS,
        }
    }

    /// The documentation of its function `name`, if it has one.
    pub fn function_doc(self, name: &str) -> Option<&'static Function> {
        self.function_docs()
            .iter()
            .find(|function| function.name == name)
    }

    /// Its operators, in the order completion offers them.
    pub fn operators(self) -> &'static [Operator] {
        match self {
            Language::Cel => CEL_OPERATORS,
            Language::Expr => EXPR_OPERATORS,
        }
    }
}

/// Shorthand for one documented function.
const fn function(
    name: &'static str,
    signature: &'static str,
    summary: &'static str,
    example: &'static str,
) -> Function {
    Function {
        name,
        signature,
        summary,
        example,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_function_of_each_language_is_documented_once() {
        for language in Language::ALL {
            let documented: Vec<&str> = language
                .function_docs()
                .iter()
                .map(|function| function.name)
                .collect();
            assert_eq!(documented, language.functions(), "{}", language.name());
        }
    }

    #[test]
    fn every_example_compiles_in_its_language() {
        for language in Language::ALL {
            for function in language.function_docs() {
                let compiled = crate::compile(*language, function.example);
                assert!(compiled.is_ok(), "{}: {compiled:?}", function.example);
            }
        }
    }
}
