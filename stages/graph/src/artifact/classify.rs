//! What a content is, from its path and its first bytes. Never from executing or parsing it.

/// A node's `kind` and `format`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Class {
    pub kind: &'static str,
    pub format: &'static str,
}

/// Classifies a file by its logical path (case-insensitive) and its first bytes.
pub fn classify_file(logical_path: &str, head: &[u8]) -> Class {
    let by_path = classify_path(logical_path);
    if by_path.format == "appimage" {
        // An ELF runtime, but what matters is the image it carries.
        return by_path;
    }
    let Some(native) = native_format(head) else {
        if by_path.format == "file" && is_zip_magic(head) {
            return Class {
                kind: "container",
                format: "zip",
            };
        }
        return by_path;
    };
    let kind = match by_path.kind {
        "native-addon" | "dynamic-library" | "framework" => by_path.kind,
        _ => "executable",
    };
    Class {
        kind,
        format: native,
    }
}

/// Whether a component of the path (case-insensitive) ends in `.framework`.
fn in_framework(logical_path: &str) -> bool {
    const NEEDLE: &[u8] = b".framework/";
    if logical_path.is_ascii() {
        logical_path
            .as_bytes()
            .windows(NEEDLE.len())
            .any(|window| window.eq_ignore_ascii_case(NEEDLE))
    } else {
        logical_path.to_lowercase().contains(".framework/")
    }
}

/// The class a directory's node gets.
pub fn classify_directory(logical_path: &str) -> Class {
    if logical_path.to_lowercase().ends_with(".framework") {
        Class {
            kind: "framework",
            format: "directory",
        }
    } else {
        Class {
            kind: "container",
            format: "directory",
        }
    }
}

/// Containers told by their name alone, with the format each is classified as.
type Named = (fn(&str) -> bool, &'static str);
const NAMED_CONTAINERS: [Named; 7] = [
    (rea_traverse::rpm::is_rpm_name, "rpm"),
    (rea_traverse::sevenz::is_7z_name, "7z"),
    (rea_traverse::msi::is_msi_name, "msi"),
    (rea_traverse::dmg::is_dmg_name, "dmg"),
    (rea_traverse::cab::is_cab_name, "cab"),
    (rea_traverse::xar::is_xar_name, "pkg"),
    (rea_traverse::payload::is_payload_name, "pkg-payload"),
];

fn classify_path(logical_path: &str) -> Class {
    // Only the name decides; lowercasing the whole path cost more than the rest of this.
    let name = logical_path
        .rsplit('/')
        .next()
        .unwrap_or(logical_path)
        .to_lowercase();
    let ends = |suffix: &str| name.ends_with(suffix);
    if ends(".map") {
        return Class {
            kind: "source-map",
            format: "source-map",
        };
    }
    if ends(".js") || ends(".mjs") || ends(".cjs") {
        return Class {
            kind: "javascript",
            format: "javascript",
        };
    }
    if ends(".asar") {
        return Class {
            kind: "container",
            format: "asar",
        };
    }
    if let Some(packing) = rea_traverse::tar::packing_of(logical_path) {
        return Class {
            kind: "container",
            format: match packing {
                rea_traverse::tar::Packing::Deb => "deb",
                _ => "tar",
            },
        };
    }
    if let Some((_, format)) = NAMED_CONTAINERS
        .iter()
        .find(|(named, _)| named(logical_path))
    {
        return Class {
            kind: "container",
            format,
        };
    }
    if rea_traverse::squashfs::is_squashfs_name(logical_path) {
        return Class {
            kind: "container",
            format: if ends(".appimage") {
                "appimage"
            } else {
                "squashfs"
            },
        };
    }
    if let Some(format) = rea_traverse::zip::zip_format(logical_path) {
        return Class {
            kind: "container",
            format,
        };
    }
    if name == "package.json" {
        return Class {
            kind: "package-metadata",
            format: "json",
        };
    }
    if in_framework(logical_path) {
        return Class {
            kind: "framework",
            format: "file",
        };
    }
    if ends(".node") {
        return Class {
            kind: "native-addon",
            format: "file",
        };
    }
    if ends(".dylib") || ends(".so") || name.contains(".so.") || ends(".dll") {
        return Class {
            kind: "dynamic-library",
            format: "file",
        };
    }
    if ends(".plist") {
        return Class {
            kind: "plist",
            format: "plist",
        };
    }
    if ends(".entitlements") {
        return Class {
            kind: "entitlements",
            format: "entitlements",
        };
    }
    Class {
        kind: "resource",
        format: "file",
    }
}

fn native_format(head: &[u8]) -> Option<&'static str> {
    let magic = head.get(..4)?;
    match magic {
        [0xCA, 0xFE, 0xBA, 0xBE]
        | [0xBE, 0xBA, 0xFE, 0xCA]
        | [0xCA, 0xFE, 0xBA, 0xBF]
        | [0xBF, 0xBA, 0xFE, 0xCA] => {
            // CAFEBABE is also a Java class file; a fat Mach-O has a small architecture count.
            let count = head
                .get(4..8)
                .map(|b| u32::from_be_bytes([b[0], b[1], b[2], b[3]]));
            match count {
                Some(n) if n > 0 && n < 45 => Some("mach-o-universal"),
                _ => None,
            }
        }
        [0xFE, 0xED, 0xFA, 0xCE]
        | [0xFE, 0xED, 0xFA, 0xCF]
        | [0xCE, 0xFA, 0xED, 0xFE]
        | [0xCF, 0xFA, 0xED, 0xFE] => Some("mach-o"),
        [0x7F, b'E', b'L', b'F'] => Some("elf"),
        [b'M', b'Z', _, _] => Some("pe"),
        _ => None,
    }
}

fn is_zip_magic(head: &[u8]) -> bool {
    matches!(
        head.get(..4),
        Some([b'P', b'K', 3, 4] | [b'P', b'K', 5, 6] | [b'P', b'K', 7, 8])
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_rules() {
        assert_eq!(classify_file("dist/main.JS", b"").kind, "javascript");
        assert_eq!(classify_file("dist/main.js.MAP", b"").format, "source-map");
        assert_eq!(classify_file("resources/app.asar", b"").format, "asar");
        assert_eq!(classify_file("x.msixbundle", b"").format, "msix");
        assert_eq!(classify_file("App-1.0.0.tar.GZ", b"").format, "tar");
        assert_eq!(classify_file("app_1.0_amd64.deb", b"").format, "deb");
        assert_eq!(classify_file("App-full.nupkg", b"").kind, "container");
        // An AppImage starts as an ELF runtime; a snap is a bare image.
        assert_eq!(
            classify_file("Obsidian-1.7.7.AppImage", b"\x7fELF\x02\x01\x01").format,
            "appimage"
        );
        assert_eq!(
            classify_file("app_1.0_amd64.snap", b"hsqs").format,
            "squashfs"
        );
        assert_eq!(
            classify_file("app-1.0.x86_64.rpm", b"\xed\xab\xee\xdb").format,
            "rpm"
        );
        assert_eq!(classify_file("$PLUGINSDIR/app-64.7z", b"7z").format, "7z");
        assert_eq!(classify_file("Demo App.MSI", b"").format, "msi");
        assert_eq!(classify_file("x/app.cab", b"MSCF").format, "cab");
        assert_eq!(
            classify_file("node_modules/a/package.json", b"{").kind,
            "package-metadata"
        );
        assert_eq!(classify_file("README", b"hello").kind, "resource");
        // A directory named like a script does not make its files scripts.
        assert_eq!(
            classify_file("node_modules/ipaddr.js/README.md", b"").kind,
            "resource"
        );
        // Inside a framework bundle, whatever the case and the script, but not a lookalike.
        for path in [
            "Frameworks/Electron Framework.framework/Resources/icon.icns",
            "Frameworks/Squirrel.FRAMEWORK/Versions/A/Squirrel",
            "Frameworks/Ünïcode.Framework/Resources/x",
        ] {
            assert_eq!(classify_file(path, b"").kind, "framework", "{path}");
        }
        assert_eq!(
            classify_file("docs/not.frameworks/readme.txt", b"").kind,
            "resource"
        );
    }

    #[test]
    fn magic_overrides_path_but_keeps_native_roles() {
        let elf = [0x7F, b'E', b'L', b'F', 2, 1, 1, 0];
        assert_eq!(
            classify_file("build/Release/addon.node", &elf),
            Class {
                kind: "native-addon",
                format: "elf"
            }
        );
        assert_eq!(
            classify_file("bin/tool", &elf),
            Class {
                kind: "executable",
                format: "elf"
            }
        );
        assert_eq!(classify_file("lib/libx.so.1", &elf).kind, "dynamic-library");
        let fat = [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 2];
        assert_eq!(classify_file("MacOS/App", &fat).format, "mach-o-universal");
        let class_file = [0xCA, 0xFE, 0xBA, 0xBE, 0, 0, 0, 52];
        assert_eq!(classify_file("A.class", &class_file).format, "file");
        assert_eq!(classify_file("blob", b"PK\x03\x04rest").format, "zip");
    }
}
