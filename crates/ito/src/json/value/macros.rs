//! [`json!`](crate::json!): a [`Value`](super::Value) from JSON-like Rust
//! syntax, as serde_json's `json!`.

/// Builds a [`json::Value`](crate::json::Value) from JSON-like syntax:
/// `null`, `true`, `false`, arrays, objects, and any Rust expression that
/// converts `Into<Value>` (numbers, strings, `Value`s, `Vec`s, `Option`s).
/// Map keys are string literals or expressions in parentheses (or a
/// variable) that convert into a [`Text`](crate::json::Text).
///
/// ```
/// let name = "ada";
/// let key = String::from("score");
/// let v = ito::json!({
///     "name": name,
///     "langs": ["en", "fr"],
///     (key): 1 + 2,
///     "meta": {"ok": true, "none": null, "list": vec![1, 2]},
/// });
/// assert_eq!(v.to_string(), r#"{"name":"ada","langs":["en","fr"],"score":3,"meta":{"ok":true,"none":null,"list":[1,2]}}"#);
/// ```
#[macro_export]
macro_rules! json {
    // Arrays: elements are the token runs between top-level commas,
    // gathered in the second bracket group (always the macro's own).
    (@array [$($done:expr,)*] []) => {
        $crate::json::Value::Array($crate::json::value::Array::from(::std::vec![$($done,)*]))
    };
    (@array [$($done:expr,)*] [$($cur:tt)+] , $($rest:tt)*) => {
        $crate::json!(@array [$($done,)* $crate::json!($($cur)+),] [] $($rest)*)
    };
    (@array [$($done:expr,)*] [$($cur:tt)+]) => {
        $crate::json!(@array [$($done,)* $crate::json!($($cur)+),] [])
    };
    (@array [$($done:expr,)*] [$($cur:tt)*] $t:tt $($rest:tt)*) => {
        $crate::json!(@array [$($done,)*] [$($cur)* $t] $($rest)*)
    };
    // Objects: `key: value` runs between top-level commas.
    (@object $obj:ident) => {};
    (@object $obj:ident ($key:expr) [$($cur:tt)+] , $($rest:tt)*) => {
        $obj.insert($key, $crate::json!($($cur)+));
        $crate::json!(@object $obj $($rest)*);
    };
    (@object $obj:ident ($key:expr) [$($cur:tt)+]) => {
        $obj.insert($key, $crate::json!($($cur)+));
    };
    (@object $obj:ident ($key:expr) [$($cur:tt)*] $t:tt $($rest:tt)*) => {
        $crate::json!(@object $obj ($key) [$($cur)* $t] $($rest)*)
    };
    (@object $obj:ident $key:tt : $($rest:tt)+) => {
        $crate::json!(@object $obj ($key) [] $($rest)+)
    };
    (null) => {
        $crate::json::Value::Null
    };
    ([]) => {
        $crate::json::Value::Array($crate::json::value::Array::new())
    };
    ([ $($tt:tt)+ ]) => {
        $crate::json!(@array [] [] $($tt)+)
    };
    ({}) => {
        $crate::json::Value::Object($crate::json::Map::new())
    };
    ({ $($tt:tt)+ }) => {{
        let mut object = $crate::json::Map::new();
        $crate::json!(@object object $($tt)+);
        $crate::json::Value::Object(object)
    }};
    ($other:expr) => {
        $crate::json::Value::from($other)
    };
}
