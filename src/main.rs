use clap::Parser;

#[tokio::main]
async fn main() -> std::process::ExitCode {
    cairn::cli::run(cairn::config::Cli::parse()).await
}
