fn main() {
    println!("commsched");
}
