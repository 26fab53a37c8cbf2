import { isOptionsGroup, Select, type ComboboxItem, type OptionsFilter } from "@mantine/core";
import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import { districtNames, findProvince, loadProvinces, matchesPlaceSearch, placeOptions } from "@/lib/turkey-provinces/index.ts";

interface PlaceField {
  label: string;
  value: string;
  onChange(value: string): void;
  onBlur?(): void;
  error?: string;
  required?: boolean;
}

interface Props {
  province: PlaceField;
  district: PlaceField;
}

/** Search in a place select: folded, so "istanbul" finds İstanbul and "mugla" Muğla. */
const placeFilter: OptionsFilter = ({ options, search, limit }) =>
  options
    .filter((option): option is ComboboxItem => !isOptionsGroup(option) && matchesPlaceSearch(option.label, search))
    .slice(0, limit);

/**
 * An address's province (il) and district (ilçe): the province searched and picked from
 * Türkiye's 81, then a district of that province. The list is loaded when the fields first
 * show (src/lib/turkey-provinces). A value from before that the list does not have (a free
 * text) stays a choice, marked, so it is shown and can be kept; picking another province
 * clears a district that is not one of its own.
 */
export function ProvinceDistrictFields({ province, district }: Props) {
  const { t } = useTranslation();
  const provinces = useQuery({ queryKey: ["turkey-provinces"], queryFn: loadProvinces, staleTime: Infinity, gcTime: Infinity });
  const list = provinces.data ?? [];
  const label = (option: { value: string; unlisted?: boolean }) =>
    option.unlisted ? t("places.unlisted", { value: option.value }) : option.value;
  const provinceData = placeOptions(
    list.map((entry) => entry.name),
    province.value,
  ).map((option) => ({ value: option.value, label: label(option) }));
  const districts = districtNames(list, province.value);
  const districtData = placeOptions(districts, district.value).map((option) => ({ value: option.value, label: label(option) }));
  const loadingHint = provinces.isPending ? t("places.loading") : provinces.isError ? t("places.loadError") : undefined;

  return (
    <>
      <Select
        label={province.label}
        required={province.required}
        searchable
        clearable
        filter={placeFilter}
        limit={100}
        nothingFoundMessage={t("places.noProvince")}
        placeholder={t("places.provincePlaceholder")}
        description={loadingHint}
        inputWrapperOrder={["label", "input", "description", "error"]}
        data={provinceData}
        value={province.value || null}
        onChange={(value) => {
          const next = value ?? "";
          province.onChange(next);
          // A district of another province does not stay; one kept from before (unlisted) neither.
          if (district.value && !districtNames(list, next).includes(district.value)) district.onChange("");
        }}
        onBlur={province.onBlur}
        error={province.error}
        autoComplete="off"
      />
      <Select
        label={district.label}
        required={district.required}
        searchable
        clearable
        filter={placeFilter}
        limit={100}
        nothingFoundMessage={t("places.noDistrict")}
        placeholder={findProvince(list, province.value) ? t("places.districtPlaceholder") : t("places.provinceFirst")}
        disabled={districtData.length === 0}
        data={districtData}
        value={district.value || null}
        onChange={(value) => district.onChange(value ?? "")}
        onBlur={district.onBlur}
        error={district.error}
        autoComplete="off"
      />
    </>
  );
}
