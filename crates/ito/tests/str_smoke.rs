#[test]
fn smoke() {
    let name = "world";
    let s = ito::format!("hello, {name}! {} + {} = {:>4}", 1, 2, 1 + 2);
    assert_eq!(s, "hello, world! 1 + 2 =    3");
    let x = 3.5f64;
    assert_eq!(
        ito::format!("{x:.3} {:?} {0}", "a\"b"),
        std::format!("{x:.3} {:?} {0}", "a\"b")
    );
    assert_eq!(
        ito::format!("{:.*}|{2:0$}|{:>w$}", 2, 1.23456, 7, w = 5),
        std::format!("{:.*}|{2:0$}|{:>w$}", 2, 1.23456, 7, w = 5)
    );
    let c = ito::concat!("a", 'b', 1, name, -5i32);
    assert_eq!(c, "ab1world-5");
    let v: Vec<String> = vec!["a".into()];
    assert_eq!(
        ito::format!("{}", v.iter().map(|x| x.len()).sum::<usize>()),
        "1"
    );
    assert_eq!(ito::format!("lit {{}}"), "lit {}");
}
