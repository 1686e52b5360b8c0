//! The interpreter's output (print targets, pipes to commands, flushing) and input (main files in ARGV order, getline sources).

use super::*;

impl<'p, 'c, 'a> Interp<'p, 'c, 'a> {
    // ----- output ----------------------------------------------------------

    pub async fn flush_stdout(&mut self) -> R<()> {
        if !self.out_buf.is_empty() {
            let b = std::mem::take(&mut self.out_buf);
            self.ctx.stdout.write(&b).await?;
        }
        Ok(())
    }

    pub async fn write_to(&mut self, redir: Option<(Redir, String)>, data: &str) -> R<()> {
        let Some((kind, name)) = redir else {
            self.out_buf.extend_from_slice(data.as_bytes());
            if self.out_buf.len() >= 8192 {
                self.flush_stdout().await?;
            }
            return Ok(());
        };
        match (kind, name.as_str()) {
            (Redir::Pipe, _) => {
                return fatal(format!("cannot open pipe `{name}': running commands is not supported in this sandbox"))
            }
            (_, "/dev/stdout" | "-") => {
                self.out_buf.extend_from_slice(data.as_bytes());
                return Ok(());
            }
            (_, "/dev/stderr") => {
                self.flush_stdout().await?;
                self.ctx.stderr.write(data.as_bytes()).await?;
                return Ok(());
            }
            (_, "/dev/null") => return Ok(()),
            _ => {}
        }
        if !self.files.contains_key(&name) {
            let path = self.ctx.resolve(&name);
            let r = if kind == Redir::File {
                self.ctx.fs.write(&path, b"").await
            } else {
                self.ctx.fs.append(&path, b"").await
            };
            if let Err(e) = r {
                return fatal(format!("cannot redirect to `{name}': {e}"));
            }
            self.files.insert(name.clone(), OutFile { path, buf: Vec::new() });
        }
        let big = match self.files.get_mut(&name) {
            Some(f) => {
                f.buf.extend_from_slice(data.as_bytes());
                f.buf.len() > 65536
            }
            None => false,
        };
        if big {
            self.flush_file(&name).await?;
        }
        Ok(())
    }

    pub(super) async fn flush_file(&mut self, name: &str) -> R<()> {
        if let Some(f) = self.files.get_mut(name) {
            let b = std::mem::take(&mut f.buf);
            let path = f.path.clone();
            if !b.is_empty() {
                self.ctx.fs.append(&path, &b).await.map_err(IoError::Fs)?;
            }
        }
        Ok(())
    }

    pub async fn flush_all(&mut self) -> R<()> {
        let names: Vec<String> = self.files.keys().cloned().collect();
        for n in names {
            self.flush_file(&n).await?;
        }
        self.flush_stdout().await
    }

    /// `close(name)`: 0 when something was open under that name, else -1.
    pub async fn close(&mut self, name: &str) -> R<f64> {
        let mut found = false;
        if self.files.contains_key(name) {
            self.flush_file(name).await?;
            self.files.remove(name);
            found = true;
        }
        if self.inputs.remove(name).is_some() {
            found = true;
        }
        Ok(if found { 0.0 } else { -1.0 })
    }

    // ----- input -----------------------------------------------------------

    pub(super) fn max_record(&self) -> usize {
        self.ctx.budget.limits.max_string_bytes.max(1) as usize
    }

    pub(super) fn num_var(&self, i: usize) -> f64 {
        match &self.globals[i] {
            Cell::Val(v) => v.num(),
            Cell::Arr(_) => 0.0,
        }
    }

    pub(super) fn bump(&mut self, i: usize) {
        let n = self.num_var(i) + 1.0;
        self.globals[i] = Cell::Val(Value::Num(n));
    }

    /// Open the next ARGV file (or stdin when there were none); false at the end.
    pub(super) async fn open_next_main(&mut self) -> R<bool> {
        if self.main.done {
            return Ok(false);
        }
        loop {
            self.tick()?;
            let argc = self.num_var(V_ARGC);
            if (self.main.argi as f64) >= argc {
                break;
            }
            let i = self.main.argi;
            self.main.argi += 1;
            let argv = match &self.globals[V_ARGV] {
                Cell::Arr(id) => *id,
                Cell::Val(_) => break,
            };
            let Some(arg) = self.arrays[argv].get(&i.to_string()).map(|v| v.str(&self.convfmt)) else { continue };
            if arg.is_empty() {
                continue;
            }
            if let Some((name, val)) = super::super::split_assignment(&arg) {
                let v = self.prog.globals.iter().position(|g| g == name);
                let value = Value::from_input(super::super::unescape(val));
                // A variable the program never uses needs no assignment.
                if let Some(g) = v {
                    self.set_var(Var::Global(g), value)?;
                }
                continue;
            }
            self.main.opened_any = true;
            let reader = if arg == "-" || arg == "/dev/stdin" {
                Reader::stream(self.ctx.stdin.clone())
            } else {
                let path = self.ctx.resolve(&arg);
                match open_file(self.ctx, &path).await {
                    Ok(input) => Reader::stream(input),
                    Err(crate::fs::FsError::IsADirectory) => {
                        self.flush_stdout().await?;
                        let msg =
                            format!("{}: warning: command line argument `{arg}' is a directory: skipped\n", self.name);
                        self.ctx.stderr.write(msg.as_bytes()).await?;
                        continue;
                    }
                    Err(e) => return Err(Ctl::FatalBare(format!("cannot open file `{arg}' for reading: {e}"))),
                }
            };
            self.globals[V_FILENAME] = Cell::Val(Value::Str(arg));
            self.globals[V_FNR] = Cell::Val(Value::Num(0.0));
            self.main.reader = Some(reader);
            return Ok(true);
        }
        if !self.main.opened_any {
            self.main.opened_any = true;
            self.globals[V_FNR] = Cell::Val(Value::Num(0.0));
            self.globals[V_FILENAME] = Cell::Val(Value::Str("-".into()));
            self.main.reader = Some(Reader::stream(self.ctx.stdin.clone()));
            return Ok(true);
        }
        self.main.done = true;
        Ok(false)
    }

    /// The next record of the main input (NR and FNR counted), or None.
    pub async fn next_main(&mut self) -> R<Option<String>> {
        loop {
            if self.main.reader.is_none() && !self.open_next_main().await? {
                return Ok(None);
            }
            let max = self.max_record();
            let Some(reader) = self.main.reader.as_mut() else { continue };
            match reader.next_record(&self.rs, self.ctx, max).await {
                Some((rec, rt)) => {
                    set_rt(&mut self.globals[V_RT], rt);
                    self.bump(V_NR);
                    self.bump(V_FNR);
                    return Ok(Some(rec));
                }
                None => self.main.reader = None,
            }
        }
    }

    /// `nextfile`: drop the rest of the current file.
    pub fn skip_file(&mut self) {
        self.main.reader = None;
    }

    /// A record from `getline < name`: Ok(None) at end, Err(()) when unreadable.
    pub(super) async fn read_from(&mut self, name: &str) -> R<Result<Option<String>, ()>> {
        if !self.inputs.contains_key(name) {
            let reader = if name == "-" || name == "/dev/stdin" {
                Reader::stream(self.ctx.stdin.clone())
            } else {
                match open_file(self.ctx, &self.ctx.resolve(name)).await {
                    Ok(input) => Reader::stream(input),
                    Err(_) => return Ok(Err(())),
                }
            };
            self.inputs.insert(name.to_string(), reader);
        }
        let max = self.max_record();
        let Some(r) = self.inputs.get_mut(name) else { return Ok(Err(())) };
        Ok(Ok(r.next_record(&self.rs, self.ctx, max).await.map(|(rec, rt)| {
            set_rt(&mut self.globals[V_RT], rt);
            rec
        })))
    }
}
