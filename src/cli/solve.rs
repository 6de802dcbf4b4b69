//! `nqueens solve N`: the solutions, streamed in lexicographic order.

use std::io::{self, BufWriter, Write};

use super::args::{Format, SolveArgs};

pub fn run(args: SolveArgs) -> anyhow::Result<()> {
    let solutions = nqueens::solutions(args.n)?;
    let limit = args.limit.unwrap_or(u64::MAX);
    let mut out = BufWriter::new(io::stdout().lock());
    for (i, solution) in (0..limit).zip(solutions) {
        match args.format {
            Format::Board => {
                if i > 0 {
                    writeln!(out)?;
                }
                writeln!(out, "{}", solution.board())?;
            }
            Format::Columns => writeln!(out, "{solution}")?,
            Format::Json => {
                serde_json::to_writer(&mut out, solution.columns())?;
                writeln!(out)?;
            }
        }
    }
    out.flush()?;
    Ok(())
}
