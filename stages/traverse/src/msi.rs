//! Windows Installer packages (`.msi`): electron-builder's `msi` target, WiX-built installers,
//! and the enterprise packages of many Windows applications.
//!
//! A package is a compound file holding a database and streams. The `msi` crate reads its
//! tables; REA lists what the package installs, at the path it installs to:
//! - each `File` row is installed into its component's directory under its long name;
//! - a `Directory` row's path is its parent's path and its target name (the long one of
//!   `short|long`); a name of `.` adds nothing; the root (`TARGETDIR`) is the listing's root;
//! - a standard folder with no name of its own (`ProgramFilesFolder`, `LocalAppDataFolder`,
//!   ...) is named as Windows names it ([`system_folder`]): `Program Files/Demo App/App.exe`.
//!
//! The bytes come from the cabinets the `Media` table names: an embedded one (`#name`) is the
//! package stream of that name, copied into memory and decoded by [`crate::cab`]; a cabinet
//! file's name there is its `File` row's key. A file in an external cabinet or an
//! uncompressed source image is listed, unavailable, with a limitation. The package's other
//! streams (custom action binaries and scripts in `Binary`, icons in `Icon`) are listed under
//! `[streams]/` by their stream names.

use std::collections::{BTreeMap, HashMap};

use rea_core::Failure;

use crate::entry::{ArchiveFile, ArchiveRange, Entry, EntryKind, EntrySource};
use crate::nested::Walk;
use crate::read::SeekRange;

const WHAT: &str = "Windows Installer package";

/// Where the package's own streams are listed.
pub const STREAMS_DIR: &str = "[streams]";

/// The most directories one path may climb through: deeper is a cycle or a malformed table.
const MAX_DIRECTORY_DEPTH: usize = 256;

/// True when `name` is named like a Windows Installer package.
pub fn is_msi_name(name: &str) -> bool {
    crate::path::has_suffix(name, ".msi")
}

/// The name Windows gives a standard folder property's directory, for a `Directory` row whose
/// id is that property and whose own name is `.` (WiX writes them so).
pub fn system_folder(id: &str) -> Option<&'static str> {
    Some(match id {
        "ProgramFilesFolder" | "ProgramFiles64Folder" | "ProgramFiles6432Folder" => "Program Files",
        "CommonFilesFolder" | "CommonFiles64Folder" | "CommonFiles6432Folder" => "Common Files",
        "LocalAppDataFolder" => "AppData/Local",
        "AppDataFolder" => "AppData/Roaming",
        "CommonAppDataFolder" => "ProgramData",
        "WindowsFolder" => "Windows",
        "SystemFolder" | "System64Folder" | "System16Folder" | "System6432Folder" => "System32",
        "FontsFolder" => "Windows/Fonts",
        "TempFolder" => "Temp",
        "DesktopFolder" => "Desktop",
        "PersonalFolder" => "Documents",
        "StartMenuFolder" => "Start Menu",
        "ProgramMenuFolder" => "Start Menu/Programs",
        "StartupFolder" => "Start Menu/Programs/Startup",
        "FavoritesFolder" => "Favorites",
        "SendToFolder" => "SendTo",
        "TemplateFolder" => "Templates",
        "MyPicturesFolder" => "Pictures",
        "AdminToolsFolder" => "Administrative Tools",
        _ => return None,
    })
}

/// The target name of a `DefaultDir` or `FileName` value: before any `:` (the source name),
/// the long name of `short|long`.
fn target_name(value: &str) -> &str {
    let target = value.split(':').next().unwrap_or("");
    target.split_once('|').map_or(target, |(_, long)| long)
}

/// Sends every file the package installs and every stream it holds below `prefix` (`""` at
/// the root), then expands the archives among them. A package whose database cannot be read
/// fails with reason `format` (nested: the container's note).
pub fn walk(walk: &mut Walk<'_, '_>, source: &ArchiveRange, prefix: &str) -> Result<(), Failure> {
    crate::nested::send_guarded(walk, source, prefix, WHAT, list_package)
}

/// One `File` row: its key (its name in a cabinet), component, long name and size.
struct FileRow {
    key: String,
    component: String,
    name: String,
    size: u64,
}

/// The string and integer values of the selected columns of every row of `table`.
fn rows<R: std::io::Read + std::io::Seek>(
    package: &mut msi::Package<R>,
    table: &str,
    columns: &[&str],
) -> Result<Vec<Vec<msi::Value>>, String> {
    if !package.has_table(table) {
        return Ok(Vec::new());
    }
    let rows = package
        .select_rows(msi::Select::table(table).columns(columns))
        .map_err(|err| format!("its {table} table could not be read: {err}"))?;
    Ok(rows
        .map(|row| (0..columns.len()).map(|i| row[i].clone()).collect())
        .collect())
}

fn text(value: &msi::Value) -> String {
    value.as_str().unwrap_or_default().to_owned()
}

/// The install path of every directory (below the listing's root, `""` for the root itself).
fn directory_paths(directories: &[Vec<msi::Value>]) -> HashMap<String, String> {
    let table: HashMap<String, (String, String)> = directories
        .iter()
        .map(|row| (text(&row[0]), (text(&row[1]), text(&row[2]))))
        .collect();
    let mut paths = HashMap::with_capacity(table.len());
    for id in table.keys() {
        // Climb to the root, then name the chain downwards.
        let mut chain = Vec::new();
        let mut at = id.as_str();
        while let Some((parent, default_dir)) = table.get(at) {
            if chain.len() > MAX_DIRECTORY_DEPTH {
                chain.clear();
                break;
            }
            let root = parent.is_empty() || parent == at;
            let own = target_name(default_dir);
            let name = if root {
                ""
            } else if own == "." || own.is_empty() {
                system_folder(at).unwrap_or("")
            } else {
                own
            };
            chain.push(name);
            if root {
                break;
            }
            at = parent;
        }
        let path: Vec<&str> = chain.into_iter().rev().filter(|n| !n.is_empty()).collect();
        paths.insert(id.clone(), path.join("/"));
    }
    paths
}

fn list_package(
    walk: &mut Walk<'_, '_>,
    source: &ArchiveRange,
    prefix: &str,
) -> Result<BTreeMap<String, Entry>, Failure> {
    let (cx, limits) = (walk.cx, walk.limits);
    let reader = std::io::BufReader::with_capacity(
        1 << 16,
        SeekRange::new(source.archive.file.clone(), source.base, source.len),
    );
    let mut package =
        msi::Package::open(reader).map_err(|err| source.unreadable(WHAT, err.to_string()))?;
    let unreadable = |problem: String| source.unreadable(WHAT, problem);
    let directories = rows(
        &mut package,
        "Directory",
        &["Directory", "Directory_Parent", "DefaultDir"],
    )
    .map_err(unreadable)?;
    let components: HashMap<String, String> =
        rows(&mut package, "Component", &["Component", "Directory_"])
            .map_err(unreadable)?
            .iter()
            .map(|row| (text(&row[0]), text(&row[1])))
            .collect();
    let files: Vec<FileRow> = rows(
        &mut package,
        "File",
        &["File", "Component_", "FileName", "FileSize"],
    )
    .map_err(unreadable)?
    .iter()
    .map(|row| FileRow {
        key: text(&row[0]),
        component: text(&row[1]),
        name: target_name(&text(&row[2])).to_owned(),
        size: row[3].as_int().map_or(0, |size| size.max(0) as u64),
    })
    .collect();
    let media = rows(&mut package, "Media", &["DiskId", "Cabinet"]).map_err(unreadable)?;
    let paths = directory_paths(&directories);

    // The package's streams, copied into memory: where the embedded cabinets and the listed
    // streams are read from.
    let bound = crate::nested::decompression_bound(limits, source.len);
    let too_much = format!(
        "the package's streams take more than the {bound} bytes they may take in memory (max_entry_bytes, max_compression_ratio)"
    );
    let mut memory = crate::nested::Memory::new("the package's streams", bound)
        .map_err(|note| source.unreadable(WHAT, note))?;
    let held = ArchiveFile {
        path: source.archive.path.clone(),
        file: memory.file.clone(),
    };
    let names: Vec<String> = package.streams().collect();
    let mut streams: BTreeMap<String, Result<(u64, u64), String>> = BTreeMap::new();
    for name in names {
        cx.check()?;
        let placed = match package.read_stream(&name) {
            Ok(reader) => memory.append(cx, reader, "the stream", &too_much)?,
            Err(err) => Err(format!("not read: {err}")),
        };
        streams.insert(name, placed);
    }

    // Each embedded cabinet, decoded: where each of its files is, by its key.
    let mut located: HashMap<String, Result<EntrySource, String>> = HashMap::new();
    let mut cabinets = Vec::new();
    for row in &media {
        let cabinet = text(&row[1]);
        let Some(stream) = cabinet.strip_prefix('#') else {
            if !cabinet.is_empty() {
                walk.notes.skip(
                    prefix,
                    format!("its files in the external cabinet {cabinet} are not in the package"),
                );
            }
            continue;
        };
        cabinets.push(stream.to_owned());
        let range = match streams.get(stream) {
            Some(Ok((base, len))) => ArchiveRange {
                archive: held.clone(),
                base: *base,
                len: *len,
            },
            Some(Err(note)) => {
                walk.notes
                    .skip(prefix, format!("its cabinet {stream} was {note}"));
                continue;
            }
            None => {
                walk.notes.skip(
                    prefix,
                    format!("its Media table names the cabinet {stream}, which it does not hold"),
                );
                continue;
            }
        };
        let table = match crate::cab::parse(&range) {
            Ok(table) => table,
            Err(problem) => {
                walk.notes.skip(
                    prefix,
                    format!("its cabinet {stream} is not readable: {problem}"),
                );
                continue;
            }
        };
        let cab_bound = crate::nested::decompression_bound(limits, range.len);
        let decoded = crate::cab::decode(cx, &range, &table, cab_bound)?;
        for (index, file) in table.files.iter().enumerate() {
            let outcome = match &decoded {
                Ok(decoded) => decoded.files[index]
                    .clone()
                    .map(|offset| EntrySource::Range {
                        archive: decoded.memory.clone(),
                        offset,
                        len: u64::from(file.size),
                    }),
                Err(note) => Err(note.clone()),
            };
            located.insert(file.name.clone(), outcome);
        }
    }

    let mut members = BTreeMap::new();
    for file in &files {
        cx.check()?;
        let Some(directory) = components.get(&file.component).and_then(|d| paths.get(d)) else {
            walk.notes.skip(
                prefix,
                format!(
                    "file {} was skipped: its component {} has no directory",
                    file.key, file.component
                ),
            );
            continue;
        };
        let relative = if directory.is_empty() {
            file.name.clone()
        } else {
            format!("{directory}/{}", file.name)
        };
        let Some(logical_path) = walk.member_path(prefix, &relative) else {
            continue;
        };
        let mut entry = Entry::bare(logical_path, EntryKind::File);
        entry.declared_size = Some(file.size);
        match located.get(&file.key) {
            Some(Ok(place)) => {
                // The cabinet's header declares the bytes that are read; a File table that
                // says otherwise is recorded, not believed.
                if let EntrySource::Range { len, .. } = place
                    && *len != file.size
                {
                    entry.limitations.push(format!(
                        "its File table declares {} bytes; its cabinet holds {len}",
                        file.size
                    ));
                    entry.declared_size = Some(*len);
                }
                entry.source = place.clone();
            }
            Some(Err(note)) => entry.limitations.push(note.clone()),
            None => entry.limitations.push(
                "not read: it is in no cabinet the package holds (an external cabinet or an uncompressed source image)"
                    .to_owned(),
            ),
        }
        crate::nested::keep_last(&mut members, entry, prefix, &mut walk.notes);
    }
    for (name, placed) in streams {
        if cabinets.contains(&name) {
            // Its bytes are listed as the files it holds.
            continue;
        }
        let relative = format!("{STREAMS_DIR}/{name}");
        let Some(logical_path) = walk.member_path(prefix, &relative) else {
            continue;
        };
        let mut entry = Entry::bare(logical_path, EntryKind::File);
        match placed {
            Ok((offset, len)) => {
                entry.declared_size = Some(len);
                entry.source = EntrySource::Range {
                    archive: held.clone(),
                    offset,
                    len,
                };
            }
            Err(note) => entry.limitations.push(note),
        }
        crate::nested::keep_last(&mut members, entry, prefix, &mut walk.notes);
    }
    Ok(members)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn target_names_take_the_long_name_before_the_source_name() {
        assert_eq!(target_name("APPASA~1.ASA|app.asar"), "app.asar");
        assert_eq!(target_name("app.asar"), "app.asar");
        assert_eq!(target_name("DEMO~1|Demo App:SRC|Source"), "Demo App");
        assert_eq!(target_name("."), ".");
    }

    #[test]
    fn directories_resolve_through_dots_system_folders_and_cycles() {
        let row = |id: &str, parent: &str, dir: &str| {
            vec![
                msi::Value::from(id),
                if parent.is_empty() {
                    msi::Value::Null
                } else {
                    msi::Value::from(parent)
                },
                msi::Value::from(dir),
            ]
        };
        let table = vec![
            row("TARGETDIR", "", "SourceDir"),
            row("ProgramFilesFolder", "TARGETDIR", "."),
            row("INSTALLDIR", "ProgramFilesFolder", "DEMO~1|Demo App"),
            row("same", "INSTALLDIR", "."),
            row("res", "same", "resources"),
            row("Custom", "TARGETDIR", "."),
            row("a", "b", "a"),
            row("b", "a", "b"),
        ];
        let paths = directory_paths(&table);
        assert_eq!(paths["TARGETDIR"], "");
        assert_eq!(paths["INSTALLDIR"], "Program Files/Demo App");
        assert_eq!(paths["res"], "Program Files/Demo App/resources");
        assert_eq!(paths["Custom"], "");
        // A cycle has no root: it resolves to nothing rather than looping.
        assert_eq!(paths["a"], "");
    }
}
